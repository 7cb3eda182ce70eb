#!/usr/bin/env python3
"""Checks that no code of sim/ outside sim/platform tells a link's role from its name; exit 1 (one line each) if some does.

The platform plan gives every link its role (sim/platform/platform_plan.h, PlanLink::role) and the
analysis reads it; the names of SimGrid XML links are read back into roles in sim/platform alone
(link_roles.h). Caught, in C++ code with comments removed: a name test (ends_with, starts_with,
find, rfind, contains, compare) on a literal that carries a link name's part ("-nic", "-uplink",
"spine", "-stack", "-switch", "-intra", "-nvlink", "-pcie", "-shm", "-background"), a comparison
(== or !=) with such a literal or with a name built by adding one, and a comparison with
kSpineLinkName or with a link-naming function (nic_link_name, uplink_name, switch_link_name,
intra_link_name, intra_port_name).
--self-test runs the check on small generated trees and fails unless each way of telling a role
from a name is caught, and sound code (roles read, the same tests in sim/platform) is not.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from tree_cases import rule_problems, run_cases, tree_check_main

PART = r'[^"\n]*(?:-nic|-uplink|spine|-stack|-switch|-intra|-nvlink|-pcie|-shm|-background)[^"\n]*'
RULES = [
    ("a name test on a link name's part", re.compile(r'\b(?:ends_with|starts_with|find|rfind|contains|compare)\s*\(\s*"' + PART + '"')),
    ("a comparison with a link name's part", re.compile(r'(?:==|!=)\s*(?:[\w.\[\]>-]+\s*\+\s*)?(?:std::string\s*\(\s*)?"' + PART + '"')),
    ("a comparison with a link name's part", re.compile(r'"' + PART + r'"\s*\)?\s*(?:==|!=)')),
    ("a comparison with a link's naming", re.compile(
        r'(?:==|!=)\s*(?:kSpineLinkName|(?:nic_link_name|uplink_name|switch_link_name|intra_link_name|intra_port_name)\s*\()')),
    ("a comparison with a link's naming", re.compile(r'kSpineLinkName\s*(?:==|!=)')),
]
def check(root):
    return rule_problems(root, os.path.join("sim", "platform"), RULES,
                         "read the link's role (LinkProperties::role, PlanLink::role) instead")


def self_test():
    reads_roles = ('#include "ring.h"\n// A name such as "node0-nic" or one ending in "-uplink" is no role: ends_with("-nic") is not used.\n'
                   'bool nic(const Link& link) { return link.role == LinkRole::nic; }\n'
                   'std::string help = "the NIC (\\"node0-nic\\") and the uplink (\\"rack0-uplink\\")";\n')
    sound = {"sim/analysis/ring.cpp": reads_roles,
             "sim/platform/link_roles.cpp": 'bool up(std::string_view n) { return n.ends_with("-uplink") || n == kSpineLinkName; }\n'}
    bad = "sim/analysis/ring.cpp"
    cases = [
        ("sound tree", {}, None),
        ("ends_with", {bad: reads_roles + 'bool up(const std::string& n) { return n.ends_with("-uplink"); }\n'},
         "sim/analysis/ring.cpp:5: a name test on a link name's part"),
        ("find", {bad: reads_roles + 'bool nic(const std::string& n) { return n.find("-nic") != std::string::npos; }\n'},
         "a name test on a link name's part"),
        ("equality with a literal", {bad: reads_roles + 'bool spine(const std::string& n) { return n == "spine"; }\n'},
         "a comparison with a link name's part"),
        ("equality with a built name", {bad: reads_roles + 'bool stack(const std::string& n, const std::string& h) { return n == h + "-stack"; }\n'},
         "a comparison with a link name's part"),
        ("a literal first", {bad: reads_roles + 'bool nic(const std::string& n) { return "node0-nic" == n; }\n'},
         "a comparison with a link name's part"),
        ("kSpineLinkName", {bad: reads_roles + 'bool spine(const std::string& n) { return n != kSpineLinkName; }\n'},
         "a comparison with a link's naming"),
        ("a naming function", {bad: reads_roles + 'bool up(const std::string& n, const RackSpec& r) { return n == uplink_name(r); }\n'},
         "a comparison with a link's naming"),
        ("in a header of another folder", {"sim/report/links.h": 'inline bool nic(std::string_view n) { return n.ends_with("-nic"); }\n'},
         "sim/report/links.h:1:"),
    ]
    return run_cases(sound, cases, lambda root: check(root)[0])


if __name__ == "__main__":
    sys.exit(tree_check_main(__doc__, check, self_test,
                             lambda root, checked: f"link roles: none of the {checked} C++ files of sim/ outside sim/platform tells a link's role from its name"))
