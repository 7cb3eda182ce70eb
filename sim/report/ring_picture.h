// The ring of one case drawn over the nodes it runs on, as inline SVG: each node a box of its rank
// slots, each ring hop (rank r -> r+1) an arrow, and the hops that cross the bottleneck link direction
// drawn thick and red with their count, so that "2 ring edges share node0's NIC" is seen.
#pragma once

#include "ring_bottlenecks.h"

#include <string>

namespace ringsim {

// The SVG element (width WIDTH pixels, height as the nodes need) of RING on LAYOUT's nodes that hold
// one of its ranks. ID makes the drawing's marker ids unique on the page; COLOUR frames the nodes.
std::string ring_picture_svg(const RingCase& ring, const ClusterLayout& layout, const std::string& id, int width,
                             const std::string& colour);

}  // namespace ringsim
