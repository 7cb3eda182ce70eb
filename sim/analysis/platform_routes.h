// The ring's routes on a scenario's platform under a model, and the checks that the model fits it:
// a compact topology is reshaped by the model (routes from its graph); SimGrid XML is used as written
// (SimGrid's routes), so a model that would reshape it is refused.
#pragma once

#include "../model/model_settings.h"
#include "../platform/cluster_layout.h"
#include "topology_graph.h"

#include <memory>
#include <string>

namespace ringsim {

// Throws InputError "WHERE: model: ..." when MODEL does not fit PLATFORM's links, and "PLATFORM: ..."
// when it would reshape SimGrid XML.
std::unique_ptr<TopologyRoutes> platform_routes(const Platform& platform, const ModelSettings& model, const std::string& where);

// The same checks, without working out a SimGrid platform's routes.
void check_model_fits(const Platform& platform, const ModelSettings& model, const std::string& where);

}  // namespace ringsim
