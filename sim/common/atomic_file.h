// Output files appear whole or not at all: a failed or interrupted run never leaves half a file.
#pragma once

#include <filesystem>
#include <string_view>

namespace ringsim {

// Writes CONTENT to a temporary file beside PATH, then renames it over PATH.
// Throws std::runtime_error naming PATH when the directory is missing or not writable.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace ringsim
