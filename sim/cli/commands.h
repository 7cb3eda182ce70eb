// Entry points of the subcommands; each returns the process exit status (0 ok, 1 a check failed,
// 2 bad input or usage) and throws InputError/UsageError for main() to report.
#pragma once

namespace ringsim {

int run_command(int argc, char** argv);       // argv[0] is "run"
int platform_command(int argc, char** argv);  // argv[0] is "platform"
int measure_command(int argc, char** argv);   // argv[0] is "measure"
int validate_command(int argc, char** argv);  // argv[0] is "validate"
int calibrate_command(int argc, char** argv); // argv[0] is "calibrate"
int analyze_command(int argc, char** argv);   // argv[0] is "analyze"
int report_command(int argc, char** argv);    // argv[0] is "report"
int sweep_command(int argc, char** argv);     // argv[0] is "sweep"
int import_command(int argc, char** argv);    // argv[0] is "import"

}  // namespace ringsim
