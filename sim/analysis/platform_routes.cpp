#include "platform_routes.h"

#include "../common/input_error.h"

#include <fmt/format.h>

namespace ringsim {
namespace {

void refuse_reshaping_simgrid_xml(const Platform& platform, const ModelSettings& model) {
  if (!platform.topology && model.reshapes_platform())
    throw InputError(fmt::format("{}: the model's link_bandwidth_scale, link_latency_scale, nic_bandwidth, nic_latency, nic_efficiency, process_stack, nic_sharing and "
                                 "background need a compact topology, not SimGrid XML",
                                 platform.source.string()));
}

}  // namespace

std::unique_ptr<TopologyRoutes> platform_routes(const Platform& platform, const ModelSettings& model, const std::string& where) {
  refuse_reshaping_simgrid_xml(platform, model);
  if (!platform.topology) return std::make_unique<TopologyRoutes>(platform.source);
  return routes_under_model(model.shape(*platform.topology), model.platform_model(), where);
}

void check_model_fits(const Platform& platform, const ModelSettings& model, const std::string& where) {
  refuse_reshaping_simgrid_xml(platform, model);
  if (platform.topology) routes_under_model(model.shape(*platform.topology), model.platform_model(), where);
}

}  // namespace ringsim
