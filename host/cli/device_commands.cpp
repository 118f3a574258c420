// placeholder until the driver commands land
#include "commands.hpp"
void lightrail::cli::add_device_commands(CLI::App&, Action&) {}
