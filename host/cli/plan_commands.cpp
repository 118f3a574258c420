// `lightrail plan` and `lightrail eval`: the control plane from the shell.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_document.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/choice.hpp"
#include "lightrail/planner/experiments.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/planner/to_schedule.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/schedule_json_value.hpp"
#include "lightrail/validate.hpp"
#include "plot_program.hpp"

namespace lightrail::cli {
namespace {

namespace lp = lightrail::planner;

// The document's own faults (duplicate keys, 1e400, trailing junk) are
// FormatErrors naming the file and the JSON path.
nlohmann::json read_json(const std::string& path, const char* what) {
  return read_json_file(path, fmt::format("{} {}", what, printable(path)));
}

// "+1.23%", or "n/a" when the baseline takes no time.
std::string percent_over(int64_t x, int64_t base) {
  return base > 0 ? fmt::format("{:+.2f}%", 100.0 * (double(x) / double(base) - 1)) : "n/a";
}

std::string dir_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// Every board's schedule as a file `lightrail upload` takes:
// DIR/rail<r>-<role>-<index>.json (the index counts within a rail's role).
void write_schedules(const std::vector<lp::BoardSchedule>& boards, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::invalid_argument(fmt::format("--out {}: {}", dir, ec.message()));
  for (const auto& b : boards) {
    const std::string path = fmt::format("{}/rail{}-{}-{}.json", dir, b.rail, b.role, b.index);
    std::ofstream out(path);
    out << to_json(b.schedule).dump(2) << '\n';
    if (!out) throw std::invalid_argument(fmt::format("--out {}: cannot write {}", dir, path));
    std::cerr << fmt::format("wrote {} (rail {} {}, {} steps)\n", path, b.rail, b.role,
                             b.schedule.steps.size());
  }
}

// What the planner chose per phase, and why (text).
void print_choice(const lp::ChosenPlan& c) {
  const auto& job = c.plan.job;
  std::cout << fmt::format("{:<16}{:<16}{:<12}{:<20}{:>12}{:>12}{:>8}{:>12}\n", "phase", "pattern", "network",
                           "algorithm", "compute_ms", "comm_ms", "reconf", "exposed_ms");
  for (size_t i = 0; i < job.phases.size(); ++i) {
    const auto& t = c.chosen.phases[i];
    const auto& p = c.phases[i];
    // "64x8 nodes": 64 groups of 8 ranks across nodes; "x8 in node" inside one.
    const std::string pattern =
        fmt::format("{}x{} {}", p.groups, p.ranks_per_group, p.across_nodes ? "nodes" : "in node");
    std::cout << fmt::format("{:<16}{:<16}{:<12}{:<20}{:>12.3f}{:>12.3f}{:>8}{:>12.3f}\n",
                             printable(job.phases[i].name), pattern, lp::to_string(c.phases[i].network),
                             lp::to_string(c.phases[i].algorithm), t.compute_ps / 1e9, t.comm_ps / 1e9,
                             t.reconfigurations, t.reconfiguration_ps / 1e9);
  }
  std::cout << "why:\n";
  for (size_t i = 0; i < job.phases.size(); ++i)
    std::cout << fmt::format("  {}: {}\n", printable(job.phases[i].name), c.phases[i].why);
  if (!c.ports_why.empty()) std::cout << fmt::format("ports: {}\n", c.ports_why);
}

int run_plan(const std::string& job_path, const std::string& fabric_path, bool as_json, bool with_schedules,
             const std::string& out_dir, bool as_declared) {
  const lp::Job job = lp::job_from_json(read_json(job_path, "job"));
  const lp::Fabric fabric = lp::fabric_from_json(read_json(fabric_path, "fabric"));
  // The planner's choice, and the job as declared (every phase on circuits)
  // for comparison; --as-declared plans the latter.
  const lp::ChosenPlan choice = lp::choose_plan(job, fabric);
  const lp::OpusPlan& declared = choice.declared;
  const lp::OpusPlan& plan = as_declared ? declared : choice.plan;
  const auto caps = DeviceCapabilities::reference();
  // Board schedules are limited by what boards can drive; that limits the
  // plan only when the schedules are asked for.
  const bool boards_wanted = with_schedules || !out_dir.empty();
  std::vector<lp::BoardSchedule> boards;
  std::string no_boards;
  try {
    boards = lp::to_schedules(plan, caps);
  } catch (const std::invalid_argument& e) {
    if (boards_wanted) throw;
    no_boards = e.what();
  }
  int invalid = 0;
  for (const auto& b : boards) {
    const auto problems = validate(b.schedule, caps);
    if (!problems.empty()) {
      ++invalid;
      std::cerr << fmt::format("rail {} {} board {}:\n{}\n", b.rail, b.role, b.index, to_string(problems));
    }
  }
  // Nothing is written unless every schedule would pass the board's checks.
  if (!out_dir.empty() && invalid == 0) write_schedules(boards, out_dir);
  if (!out_dir.empty() && invalid != 0)
    std::cerr << fmt::format("--out {}: nothing written, {} schedules fail validation\n", out_dir, invalid);
  const auto el = lp::electrical_iteration(declared);
  const auto no = lp::photonic_iteration(plan, false);
  const auto ov = lp::photonic_iteration(plan, true);
  // The electrical fallback: every phase on the electrical network with its
  // best algorithm. A plan slower than it says so.
  const int64_t fallback = choice.electrical.total_ps();
  const bool slower = no.total_ps() > fallback;
  if (as_json) {
    nlohmann::json out;
    out["job"] = lp::to_json(plan.job);
    out["fabric"] = lp::to_json(fabric);
    out["as_declared"] = as_declared;
    out["choice"] = lp::to_json(choice);
    out["circuits_kept_in_place"] = !as_declared && choice.in_place;
    if (!choice.ports_why.empty()) out["ports_why"] = choice.ports_why;
    for (const auto& rp : plan.rails) {
      nlohmann::json r{{"rail", rp.rail},
                       {"ports", rp.ports},
                       {"configurations", rp.configs.size()},
                       {"reconfigurations_per_iteration", rp.reconfigurations_per_iteration()}};
      for (size_t i = 0; i < rp.phases.size(); ++i) {
        r["phases"].push_back({{"phase", job.phases[i].name},
                               {"electrical", bool(plan.on_eps[i])},
                               {"round_configs", rp.phases[i].round_config},
                               {"boundary_reconfiguration", rp.phases[i].boundary_reconfiguration}});
      }
      out["rails"].push_back(r);
    }
    out["iteration_ps"] = {
        {"electrical", el.total_ps()},          {"electrical_fallback", fallback},
        {"photonic_no_overlap", no.total_ps()}, {"photonic_overlap", ov.total_ps()},
        {"chosen", choice.chosen.total_ps()},   {"declared_circuits", choice.declared_circuits.total_ps()}};
    out["reconfigurations_per_iteration"] = no.reconfigurations;
    out["slower_than_electrical"] = slower;
    out["boards"] = boards.size();
    out["boards_invalid"] = invalid;
    if (!no_boards.empty()) out["boards_not_made"] = no_boards;
    if (with_schedules) {
      for (const auto& b : boards) {
        out["schedules"].push_back(
            {{"rail", b.rail}, {"role", b.role}, {"index", b.index}, {"schedule", to_json(b.schedule)}});
      }
    }
    print_json(out, "lightrail.plan/1");
  } else {
    std::cout << fmt::format("job {}: {} GPUs on {} nodes; fabric {}: {} rails\n", printable(job.name),
                             job.gpus, job.nodes(), printable(fabric.name), fabric.rails);
    if (as_declared) {
      std::cout << fmt::format("{:<14}{:>14}{:>12}{:>12}{:>14}\n", "phase", "compute_ms", "comm_ms", "reconf",
                               "exposed_ms");
      for (size_t i = 0; i < job.phases.size(); ++i) {
        const auto& p = no.phases[i];
        std::cout << fmt::format("{:<14}{:>14.3f}{:>12.3f}{:>12}{:>14.3f}\n", printable(job.phases[i].name),
                                 p.compute_ps / 1e9, p.comm_ps / 1e9, p.reconfigurations,
                                 p.reconfiguration_ps / 1e9);
      }
    } else {
      print_choice(choice);
    }
    std::cout << fmt::format(
        "iteration: electrical {:.3f} ms (ideal rails), photonic {:.3f} ms ({}), with overlap {:.3f} ms "
        "({}); {} "
        "reconfigurations\n",
        el.total_ps() / 1e9, no.total_ps() / 1e9, percent_over(no.total_ps(), el.total_ps()),
        ov.total_ps() / 1e9, percent_over(ov.total_ps(), el.total_ps()), no.reconfigurations);
    std::cout << fmt::format(
        "electrical fallback: {:.3f} ms (the fabric's shared EPS, every phase electrical with its best "
        "algorithm)\n",
        fallback / 1e9);
    if (as_declared) {
      std::cout << fmt::format("the planner's choice (without --as-declared): {:.3f} ms ({})\n",
                               choice.chosen.total_ps() / 1e9,
                               percent_over(choice.chosen.total_ps(), el.total_ps()));
    } else {
      std::cout << fmt::format(
          "as declared, every phase on circuits: {:.3f} ms ({}); --as-declared plans it\n",
          choice.declared_circuits.total_ps() / 1e9,
          percent_over(choice.declared_circuits.total_ps(), el.total_ps()));
    }
    if (!as_declared && choice.fallback)
      std::cout << "circuits pay for no phase: every phase stays on the electrical network\n";
    if (slower) {
      std::cout << fmt::format(
          "warning: this plan is {} against the electrical fallback ({:.3f} ms, every phase electrical with "
          "its best algorithm){}\n",
          percent_over(no.total_ps(), fallback), fallback / 1e9,
          as_declared ? "; plan without --as-declared to let the planner keep phases electrical" : "");
    }
    if (no_boards.empty()) {
      std::cout << fmt::format("schedules: {} boards, {} fail validation\n", boards.size(), invalid);
    } else {
      std::cout << fmt::format("schedules: none ({}); only --out and --schedules need them\n", no_boards);
    }
  }
  return invalid == 0 ? kOk : kInvalidInput;
}

// --plot DIR: the result as JSON in DIR/<experiment>.json, drawn by
// lightrail-plot into DIR (docs/plots.md). Checked before the experiment
// runs, which may take long; a failure is an error of its own.
int run_eval(const std::string& path, bool as_json, const std::string& plot_dir) {
  std::string data;
  if (!plot_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(plot_dir, ec);
    if (ec) throw std::invalid_argument(fmt::format("--plot {}: {}", plot_dir, ec.message()));
    data = (std::filesystem::path(plot_dir) / std::filesystem::path(path).stem()).string() + ".json";
    try {
      plots::run_plot_program({"check"});
    } catch (const std::runtime_error& e) {
      std::cerr << fmt::format("error: --plot {}: {}\n", plot_dir, e.what());
      return kNoPictures;
    }
  }
  const auto result = lp::run_experiment(read_json(path, "experiment"), dir_of(path));
  if (!plot_dir.empty()) {
    // Whole or not at all: a temporary file beside it, renamed.
    const std::string tmp = fmt::format("{}.tmp.{}", data, ::getpid());
    std::ofstream out(tmp, std::ios::trunc);
    out << result.dump(1) << '\n';
    out.close();
    std::error_code ec;
    if (out) std::filesystem::rename(tmp, data, ec);
    if (!out || ec) {
      std::filesystem::remove(tmp, ec);
      std::cerr << fmt::format("error: --plot {}: cannot write {}\n", plot_dir, data);
      return kNoPictures;
    }
    try {
      plots::run_plot_program({"eval", data, "--out", plot_dir});
    } catch (const std::runtime_error& e) {
      std::cerr << fmt::format("error: --plot {}: {}\n", plot_dir, e.what());
      return kNoPictures;
    }
  }
  if (as_json) {
    print_json(result, "lightrail.eval/1");
  } else {
    std::cout << lp::render_table(result);
  }
  return kOk;
}

int guarded(const std::function<int()>& f) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kInvalidInput;
  } catch (const FormatError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kInvalidInput;
  }
}

}  // namespace

void add_planner_commands(CLI::App& app, Action& action) {
  struct Options {
    std::string job, fabric, experiment, out, plot;
    bool json = false, schedules = false, as_declared = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* plan =
      app.add_subcommand("plan", "Plan photonic-rail circuits for a job and model its iteration");
  plan->add_option("job", o->job, "job JSON (see docs/control-plane.md)")->required();
  plan->add_option("--fabric", o->fabric, "fabric JSON")->required();
  plan->add_flag("--json", o->json, "machine-readable output");
  plan->add_flag("--as-declared", o->as_declared,
                 "plan the job's own algorithms, every phase on circuits, instead of the planner's choice");
  plan->add_flag("--schedules", o->schedules, "include every board's schedule in the JSON");
  plan->add_option("--out", o->out,
                   "write every board's schedule to DIR/rail<r>-<role>-<i>.json, ready to upload");
  plan->callback([o, &action] {
    action = [o] {
      return guarded(
          [o] { return run_plan(o->job, o->fabric, o->json, o->schedules, o->out, o->as_declared); });
    };
  });
  CLI::App* eval = app.add_subcommand("eval", "Run an experiment (experiments/*.json)");
  eval->add_option("experiment", o->experiment, "experiment JSON")->required();
  eval->add_flag("--json", o->json, "machine-readable output");
  eval->add_option("--plot", o->plot,
                   "draw the result as its paper does into DIR (PNG and SVG, with the data as "
                   "DIR/<experiment>.json; docs/plots.md)");
  eval->callback([o, &action] {
    action = [o] { return guarded([o] { return run_eval(o->experiment, o->json, o->plot); }); };
  });
}

}  // namespace lightrail::cli
