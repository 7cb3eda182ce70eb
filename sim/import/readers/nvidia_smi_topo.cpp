// `nvidia-smi topo -m` (and -mp): the matrix of how each GPU reaches each GPU and NIC (X, NV#, PIX,
// PXB, PHB, NODE, SYS), as users paste it: ANSI underline codes around the header, tabs turned into
// spaces, NICs as "NIC0" with a "NIC Legend" naming them or named in the header (mlx5_0, efa_0,
// bnxt_re0, cxi0), the legend below.
#include "../nic_assignment.h"
#include "../print_readers.h"

#include "../../common/input_error.h"
#include "../../validate/text_table.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ringsim {
namespace {

// TEXT without ANSI escape sequences ("\x1b[4m", "\x1b[0m").
std::string without_ansi(std::string_view text) {
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t end = i + 2;
      while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) != 0 || text[end] == ';')) ++end;
      i = end < text.size() ? end : text.size();
      continue;
    }
    plain += text[i];
  }
  return plain;
}

bool is_gpu_column(std::string_view word) {
  return word.size() > 3 && word.starts_with("GPU") && std::all_of(word.begin() + 3, word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct TopoMatrix {
  std::vector<std::string> columns;  // GPU0.., then the NICs
  int header_line = 0;
  std::map<std::string, std::vector<std::string>> rows;  // GPU row -> its cells
  std::map<std::string, int> row_lines;
  std::map<std::string, std::string> nic_legend;  // "NIC0" -> "mlx5_0"
  bool legend_names_nvlink = false;
};

// The device columns of a header line: the words before "CPU Affinity" / "NUMA Affinity" / "GPU NUMA ID".
std::vector<std::string> header_columns(const std::vector<std::string_view>& words) {
  std::vector<std::string> columns;
  for (const auto word : words) {
    if (word == "CPU" || word == "NUMA" || word == "GPU") break;
    columns.emplace_back(word);
  }
  return columns;
}

const std::set<std::string_view> kPaths{"X", "SYS", "NODE", "PHB", "PXB", "PIX", "SOC"};

void check_cell(std::string_view cell, const std::string& row, const std::string& column, const std::string& file, int line) {
  const bool nvlink = cell.size() > 2 && cell.starts_with("NV") && parse_count(cell.substr(2)).has_value() && *parse_count(cell.substr(2)) <= 64;
  if (!nvlink && !kPaths.contains(cell))
    throw InputError(fmt::format("{}:{}: expected X, NV#, PIX, PXB, PHB, NODE or SYS for {} to {}, found \"{}\"", file, line, row, column, cell));
  if ((row == column) != (cell == "X"))
    throw InputError(fmt::format("{}:{}: expected X exactly where {}'s row meets its own column, found \"{}\" for {}", file, line, row, cell, column));
}

TopoMatrix read_matrix(const std::vector<std::string>& plain, const std::string& file) {
  TopoMatrix matrix;
  bool in_nic_legend = false;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    const auto words = split_words(plain[i]);
    if (words.empty()) continue;
    if (matrix.columns.empty()) {
      if (words.size() >= 2 && words[0] == "GPU0") {
        matrix.columns = header_columns(words);
        matrix.header_line = line;
      }
      continue;
    }
    if (words[0] == "NV#") matrix.legend_names_nvlink = true;
    if (words[0] == "NIC" && words.size() > 1 && words[1] == "Legend:") in_nic_legend = true;
    if (in_nic_legend && words.size() == 2 && words[0].ends_with(':')) {
      matrix.nic_legend[std::string(words[0].substr(0, words[0].size() - 1))] = std::string(words[1]);
      continue;
    }
    if (!is_gpu_column(words[0]) || matrix.rows.contains(std::string(words[0]))) continue;
    const std::string row(words[0]);
    if (std::find(matrix.columns.begin(), matrix.columns.end(), row) == matrix.columns.end())
      throw InputError(fmt::format("{}:{}: expected a row of a GPU the header at line {} names, found {}", file, line, matrix.header_line, row));
    if (words.size() < matrix.columns.size() + 1)
      throw InputError(fmt::format("{}:{}: expected {} cells in {}'s row, one per column of the header at line {}, found {}", file, line,
                                   matrix.columns.size(), row, matrix.header_line, words.size() - 1));
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < matrix.columns.size(); ++c) {
      // A CPU affinity ("0-23") where a cell should be: the row is short of cells.
      if (std::isdigit(static_cast<unsigned char>(words[c + 1].front())) != 0)
        throw InputError(fmt::format("{}:{}: expected {} cells in {}'s row, one per column of the header at line {}, found {}", file, line,
                                     matrix.columns.size(), row, matrix.header_line, c));
      check_cell(words[c + 1], row, matrix.columns[c], file, line);
      cells.emplace_back(words[c + 1]);
    }
    matrix.rows[row] = cells;
    matrix.row_lines[row] = line;
  }
  return matrix;
}

int nvlink_count(std::string_view cell) {
  return cell.starts_with("NV") ? static_cast<int>(*parse_count(cell.substr(2))) : 0;
}

// NVSwitch when every pair shows the same NV# and more links than one GPU has (18) would be needed to
// make that a mesh: nvidia-smi then prints each GPU's links into the switch. A pair on NV# or a
// mesh: the most links one GPU has to its peers.
void read_fabric(const std::vector<std::vector<std::string>>& gpu_cells, int gpus, const std::string& at, bool legend_names_nvlink,
                 PrintFacts& facts) {
  std::set<int> pair_links;
  int most_links = 0;
  bool every_pair = true;
  for (int g = 0; g < gpus; ++g) {
    int links = 0;
    for (int h = 0; h < gpus; ++h) {
      if (g == h) continue;
      const int count = nvlink_count(gpu_cells[static_cast<std::size_t>(g)][static_cast<std::size_t>(h)]);
      if (count == 0) every_pair = false;
      else pair_links.insert(count);
      links += count;
    }
    most_links = std::max(most_links, links);
  }
  if (most_links == 0) {
    if (legend_names_nvlink) facts.fabric = Sourced<GpuFabric>{GpuFabric::pcie, at};
    else facts.notes.push_back(fmt::format("{}: no NV# cell and no legend naming NV#: topo -mp shows PCIe paths only", facts.file));
    return;
  }
  const bool switch_fabric = every_pair && pair_links.size() == 1 && gpus > 2 && *pair_links.begin() * (gpus - 1) > 18;
  facts.fabric = Sourced<GpuFabric>{switch_fabric ? GpuFabric::nvswitch : GpuFabric::nvlink_mesh, at};
  facts.nvlinks_per_gpu = Sourced<int>{switch_fabric ? *pair_links.begin() : most_links, at};
  if (!switch_fabric && !every_pair)
    facts.notes.push_back(fmt::format("{}: NVLink joins some GPU pairs only; the others cross PCIe and the CPUs", facts.file));
}

// GPUs joined by PIX sit under one PCIe switch: stated where every switch holds as many consecutive GPUs.
void read_pcie_switches(const std::vector<std::vector<std::string>>& gpu_cells, int gpus, const std::string& at, PrintFacts& facts) {
  int size = 0;
  for (int g = 0; g < gpus;) {
    int group = 1;
    while (g + group < gpus && gpu_cells[static_cast<std::size_t>(g)][static_cast<std::size_t>(g + group)] == "PIX") ++group;
    if (size != 0 && group != size) return;
    size = group;
    g += group;
  }
  if (size > 1) facts.pcie_switch_gpus = Sourced<int>{size, at};
}

}  // namespace

bool detect_nvidia_smi_topo(std::string_view text) {
  for (const auto& [number, line] : split_lines(text)) {
    const std::string plain = without_ansi(line);
    const auto words = split_words(plain);
    if (words.size() >= 2 && words[0] == "GPU0" && (words[1] == "GPU1" || words[1].starts_with("NIC") || words[1] == "CPU" ||
                                                    words[1].find('_') != std::string_view::npos))
      return true;
    if (number > 200) break;
  }
  return false;
}

PrintFacts read_nvidia_smi_topo(std::string_view text, const std::string& file) {
  std::vector<std::string> plain;
  for (const auto& [number, line] : split_lines(text)) plain.push_back(without_ansi(line));
  const TopoMatrix matrix = read_matrix(plain, file);
  if (matrix.columns.empty()) throw InputError(fmt::format("{}:1: expected the header of nvidia-smi topo -m (\"GPU0  GPU1 ...\"), found none", file));
  std::vector<std::string> gpu_names, nic_columns;
  std::vector<std::size_t> gpu_at, nic_at;  // the columns of each, in the header's order
  for (std::size_t c = 0; c < matrix.columns.size(); ++c) {
    (is_gpu_column(matrix.columns[c]) ? gpu_names : nic_columns).push_back(matrix.columns[c]);
    (is_gpu_column(matrix.columns[c]) ? gpu_at : nic_at).push_back(c);
  }
  // Each GPU's row, its GPU columns first, then its NIC columns.
  std::vector<std::vector<std::string>> gpu_cells;
  for (const auto& gpu : gpu_names) {
    const auto row = matrix.rows.find(gpu);
    if (row == matrix.rows.end())
      throw InputError(fmt::format("{}:{}: expected a row for {}, which this header names, found none", file, matrix.header_line, gpu));
    gpu_cells.emplace_back();
    for (const std::size_t c : gpu_at) gpu_cells.back().push_back(row->second[c]);
    for (const std::size_t c : nic_at) gpu_cells.back().push_back(row->second[c]);
  }
  PrintFacts facts;
  facts.file = file;
  facts.kind = "nvidia-smi-topo";
  const int gpus = static_cast<int>(gpu_names.size());
  const std::string at = fmt::format("{}:{}", file, matrix.header_line);
  facts.gpus = Sourced<int>{gpus, at};
  read_fabric(gpu_cells, gpus, at, matrix.legend_names_nvlink, facts);
  read_pcie_switches(gpu_cells, gpus, at, facts);
  std::vector<std::vector<std::optional<int>>> distance;
  for (int g = 0; g < gpus; ++g) {
    distance.emplace_back();
    for (std::size_t n = 0; n < nic_columns.size(); ++n) {
      const std::string& cell = gpu_cells[static_cast<std::size_t>(g)][static_cast<std::size_t>(gpus) + n];
      distance.back().push_back(cell == "PIX" ? std::optional(1) : cell == "PXB" ? std::optional(2) : std::nullopt);
    }
  }
  for (const auto& column : nic_columns) {
    const auto named = matrix.nic_legend.find(column);
    NicFact nic;
    nic.name = named == matrix.nic_legend.end() ? column : named->second;
    nic.transport = transport_of_nic_name(nic.name);
    nic.where = at;
    facts.nics.push_back(nic);
  }
  if (nic_columns.empty()) return facts;
  const NicAssignment assignment = assign_nics(distance, static_cast<int>(nic_columns.size()));
  std::vector<std::string> used;
  for (const int n : assignment.used) used.push_back(facts.nics[static_cast<std::size_t>(n)].name);
  if (used.empty()) {
    state_no_nic_beside_gpus(facts, static_cast<int>(distance.size()), at);
    return facts;
  }
  facts.used_nics = Sourced<std::vector<std::string>>{used, at};
  facts.nic_affinity = Sourced<std::vector<int>>{assignment.affinity, at};
  if (used.size() < nic_columns.size())
    facts.notes.push_back(fmt::format("{}: {} of {} NICs are PIX or PXB to no GPU (storage or management NICs) and are left out", file,
                                      nic_columns.size() - used.size(), nic_columns.size()));
  return facts;
}

}  // namespace ringsim
