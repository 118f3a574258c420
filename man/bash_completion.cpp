// A bash completion script from a CLI11 app. The words before the cursor
// that name subcommands (in order) select the level; that level's
// subcommands and options are offered, and file names after an option that
// takes a value.
#include <cctype>
#include <sstream>

#include "cli_doc.hpp"

namespace lightrail::clidoc {
namespace {

struct Level {
  std::string path;  // "/fabric/commit"; "" for the program itself
  std::vector<std::string> words;
  std::vector<std::string> value_options;
  std::vector<std::string> children;
};

void walk(const CLI::App& app, const std::string& path, std::vector<Level>& levels) {
  Level level{path, {}, {}, {}};
  for (const CLI::Option* o : app.get_options([&app](const CLI::Option* o) { return shown(app, o); })) {
    for (const std::string& s : o->get_snames()) {
      level.words.push_back("-" + s);
      if (takes_value(o)) level.value_options.push_back("-" + s);
    }
    for (const std::string& l : o->get_lnames()) {
      level.words.push_back("--" + l);
      if (takes_value(o)) level.value_options.push_back("--" + l);
    }
  }
  const auto subs = app.get_subcommands(
      [](const CLI::App* a) { return !a->get_name().empty() && !a->get_group().empty(); });
  for (const CLI::App* sub : subs) {
    level.words.push_back(sub->get_name());
    level.children.push_back(path + "/" + sub->get_name());
  }
  levels.push_back(level);
  for (const CLI::App* sub : subs) walk(*sub, path + "/" + sub->get_name(), levels);
}

std::string join(const std::vector<std::string>& words, const char* sep) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i ? sep : "") + words[i];
  return out;
}

// A bash function name from the program's: letters, digits and underscores.
std::string function_name(const std::string& program) {
  std::string f = "_";
  for (char c : program) f += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return f;
}

}  // namespace

std::string bash_completion(const CLI::App& app, const std::string& program) {
  std::vector<Level> levels;
  walk(app, "", levels);
  const std::string f = function_name(program);
  std::ostringstream out;
  out << "# bash completion for " << program << ", generated from its command line definitions\n"
      << "# (" << program << " --generate-doc bash-completion); do not edit.\n"
      << f << "() {\n"
      << "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path= i\n"
      << "  # The subcommands typed so far, each a child of the one before.\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case \"$path/${COMP_WORDS[i]}\" in\n";
  std::vector<std::string> all_children;
  for (const Level& l : levels) all_children.insert(all_children.end(), l.children.begin(), l.children.end());
  if (!all_children.empty())
    out << "      " << join(all_children, "|") << ") path=$path/${COMP_WORDS[i]} ;;\n";
  out << "    esac\n"
      << "  done\n"
      << "  # After an option that takes a value: file names.\n"
      << "  case \"$path $prev\" in\n";
  for (const Level& l : levels) {
    if (l.value_options.empty()) continue;
    std::vector<std::string> patterns;
    for (const std::string& o : l.value_options) patterns.push_back("\"" + l.path + " " + o + "\"");
    out << "    " << join(patterns, "|") << ")\n"
        << "      COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        << "      return ;;\n";
  }
  out << "  esac\n"
      << "  local words=\n"
      << "  case \"$path\" in\n";
  for (const Level& l : levels)
    out << "    \"" << l.path << "\") words=\"" << join(l.words, " ") << "\" ;;\n";
  out << "  esac\n"
      << "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      << "}\n"
      << "complete -o default -F " << f << " " << program << "\n";
  return out.str();
}

}  // namespace lightrail::clidoc
