#include "send_settings.h"

namespace ringsim::s4u_engine {
namespace {

std::size_t threshold = 65536;  // set by the runner from the configuration before the ranks start

}  // namespace

void set_detached_send_threshold(std::size_t bytes) { threshold = bytes; }
std::size_t detached_send_threshold() { return threshold; }

}  // namespace ringsim::s4u_engine
