// placeholder until the planner commands land
#include "commands.hpp"
void lightrail::cli::add_planner_commands(CLI::App&, Action&) {}
