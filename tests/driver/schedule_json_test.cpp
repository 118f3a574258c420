#include "lightrail/schedule_json.hpp"

#include <gtest/gtest.h>

#include "lightrail/capabilities.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/schedule_json_value.hpp"
#include "lightrail/validate.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

// The problems parse_schedule reports, or none.
std::vector<Problem> parse_problems(const std::string& text) {
  try {
    parse_schedule(text);
  } catch (const FormatError& e) {
    return e.problems();
  }
  return {};
}

bool has(const std::vector<Problem>& problems, const std::string& where, const std::string& fragment = "") {
  for (const Problem& p : problems) {
    if (p.where == where && p.message.find(fragment) != std::string::npos) return true;
  }
  return false;
}

const char* kGood = R"({"lightrail_schedule": 1, "generation": 7, "cyclic": false, "guard_ps": 500,
  "activation": {"at_ps": 123456789},
  "configs": [{"name": "a", "ports": [1, "dark", 3]}, {"name": "shift1", "ports": [2, 2, 2]}],
  "steps": [{"config": 0, "duration_ps": 16000}, {"config": "shift1", "duration_ps": 20000, "event": true}]})";

TEST(ScheduleJson, ParsesEveryField) {
  const Schedule s = parse_schedule(kGood);
  EXPECT_EQ(s.generation, 7u);
  EXPECT_FALSE(s.cyclic);
  EXPECT_EQ(s.guard_ps, 500);
  ASSERT_TRUE(s.activation_ps.has_value());
  EXPECT_EQ(*s.activation_ps, 123456789);
  ASSERT_EQ(s.configs.size(), 2u);
  EXPECT_EQ(s.configs[0].wavelength, (std::vector<int>{1, kDark, 3}));
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[1].config, 1u);  // by name
  EXPECT_EQ(s.steps[1].duration_ps, 20000);
  EXPECT_TRUE(s.steps[1].event_triggered);
  EXPECT_FALSE(s.steps[0].event_triggered);
}

TEST(ScheduleJson, DefaultsAreCyclicEpochNoGuard) {
  const Schedule s = parse_schedule(
      R"({"lightrail_schedule": 1, "configs": [{"ports": [1]}], "steps": [{"config": 0, "duration_ps": 16000}]})");
  EXPECT_TRUE(s.cyclic);
  EXPECT_FALSE(s.activation_ps.has_value());
  EXPECT_EQ(s.guard_ps, 0);
  EXPECT_EQ(s.generation, 0u);
}

TEST(ScheduleJson, RoundTripsThroughToJson) {
  const Schedule s = parse_schedule(kGood);
  const Schedule back = parse_schedule(to_json(s).dump());
  EXPECT_EQ(to_json(back), to_json(s));
  EXPECT_EQ(back.steps[1].config, 1u);
  EXPECT_EQ(*back.activation_ps, 123456789);
  EXPECT_EQ(back.configs[0].wavelength, s.configs[0].wavelength);
  const Schedule epoch = parse_schedule(to_json(test::two_shifts()).dump());
  EXPECT_FALSE(epoch.activation_ps.has_value());
  EXPECT_EQ(epoch.steps.size(), 2u);
}

TEST(ScheduleJson, ReportsEveryProblemWithItsPath) {
  const auto problems = parse_problems(R"({"lightrail_schedule": 1,
    "configs": [{"name": "a", "ports": [1, "drak", 2.5]}, {"name": "a", "ports": [1, 2, 3]}],
    "steps": [{"config": 0, "duration_ps": 16000}, {"config": 0, "duration_ps": 16000},
              {"config": "nope", "duration_ps": "long"}, {"config": 0, "duraton_ps": 16000}],
    "colour": "blue"})");
  EXPECT_TRUE(has(problems, "steps[3].duraton_ps", "unknown field"));
  EXPECT_TRUE(has(problems, "steps[3].duration_ps", "missing"));
  EXPECT_TRUE(has(problems, "steps[2].config", "\"nope\""));
  EXPECT_TRUE(has(problems, "steps[2].duration_ps", "integer"));
  EXPECT_TRUE(has(problems, "configs[0].ports[1]", "drak"));
  EXPECT_TRUE(has(problems, "configs[0].ports[2]", "fractional"));
  EXPECT_TRUE(has(problems, "configs[1].name", "duplicate"));
  EXPECT_TRUE(has(problems, "colour", "unknown field"));
  EXPECT_EQ(problems.size(), 8u);
}

TEST(ScheduleJson, MissingOrWrongVersionIsNamed) {
  const char* body = R"("configs": [{"ports": [1]}], "steps": [{"config": 0, "duration_ps": 16000}]})";
  EXPECT_TRUE(has(parse_problems(std::string("{") + body), "lightrail_schedule", "missing"));
  EXPECT_TRUE(has(parse_problems(std::string(R"({"lightrail_schedule": 2, )") + body), "lightrail_schedule",
                  "version 2"));
  EXPECT_TRUE(has(parse_problems(std::string(R"({"lightrail_schedule": "1", )") + body), "lightrail_schedule",
                  "integer"));
}

TEST(ScheduleJson, WrongTypesAreNamed) {
  const auto problems = parse_problems(R"({"lightrail_schedule": 1, "cyclic": "yes", "generation": -1,
    "activation": "later", "configs": {}, "steps": [5]})");
  EXPECT_TRUE(has(problems, "cyclic", "true or false"));
  EXPECT_TRUE(has(problems, "generation", "out of range"));
  EXPECT_TRUE(has(problems, "activation", "later"));
  EXPECT_TRUE(has(problems, "configs", "array"));
  EXPECT_TRUE(has(problems, "steps[0]", "object"));
}

TEST(ScheduleJson, MalformedJsonGivesLineAndColumn) {
  const auto problems = parse_problems("{\n  \"lightrail_schedule\": 1,\n  \"steps\": [,]\n}");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].where, "line 3, column 13");
  EXPECT_NE(problems[0].message.find("malformed JSON"), std::string::npos);
}

TEST(ScheduleJson, FileErrorsNameTheFile) {
  try {
    load_schedule_file("/nonexistent/x.json");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.json"), std::string::npos);
  }
}

TEST(ScheduleJson, NumbersBeyondDoubleRangeNameTheirField) {
  // nlohmann throws out_of_range for these, which used to escape every caller.
  const auto big = parse_problems(R"({"lightrail_schedule": 1, "generation": 1e400,
    "configs": [{"ports": [1]}], "steps": [{"config": 0, "duration_ps": 16000}]})");
  ASSERT_EQ(big.size(), 1u);
  EXPECT_TRUE(has(big, "generation", "beyond the range of a double")) << to_string(big);
  const auto digits = parse_problems(R"({"lightrail_schedule": 1, "configs": [{"ports": [1]}],
    "steps": [{"config": 0, "duration_ps": )" +
                                     std::string(400, '9') + "}]}");
  EXPECT_TRUE(has(digits, "steps[0].duration_ps", "beyond the range of a double")) << to_string(digits);
}

TEST(ScheduleJson, DuplicateKeysAreRefused) {
  // Last-wins would silently run generation 2.
  const auto problems = parse_problems(R"({"lightrail_schedule": 1, "generation": 1, "generation": 2,
    "configs": [{"ports": [1]}], "steps": [{"config": 0, "duration_ps": 16000}]})");
  EXPECT_TRUE(has(problems, "generation", "duplicate key")) << to_string(problems);
  const auto nested = parse_problems(R"({"lightrail_schedule": 1, "configs": [{"ports": [1]}],
    "steps": [{"config": 0, "duration_ps": 16000, "duration_ps": 32000}]})");
  EXPECT_TRUE(has(nested, "steps[0].duration_ps", "duplicate key")) << to_string(nested);
}

TEST(ScheduleJson, ContentAfterANulIsNotIgnored) {
  std::string text = R"({"lightrail_schedule": 1, "configs": [{"ports": [1]}],
    "steps": [{"config": 0, "duration_ps": 16000}]})";
  text += std::string(1, '\0') + "{\"generation\": 9}";
  const auto problems = parse_problems(text);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("NUL"), std::string::npos) << to_string(problems);
}

TEST(ScheduleJson, ControlCharactersInNamesAreEscaped) {
  const auto problems = parse_problems(
      "{\"lightrail_schedule\": 1, \"col\\nour\": 1, "
      "\"configs\": [{\"name\": \"a\\nb\", \"ports\": [1]}, {\"name\": \"a\\nb\", \"ports\": [1]}],"
      " \"steps\": [{\"config\": \"x\\u001b[2J\", \"duration_ps\": 16000}]}");
  EXPECT_TRUE(has(problems, "col\\nour", "unknown field")) << to_string(problems);
  EXPECT_TRUE(has(problems, "configs[1].name", "\"a\\nb\"")) << to_string(problems);
  EXPECT_TRUE(has(problems, "steps[0].config", "\"x\\u001b[2J\"")) << to_string(problems);
  for (const Problem& p : problems) {
    EXPECT_EQ(p.where.find_first_of("\n\x1b"), std::string::npos) << p.where;
    EXPECT_EQ(p.message.find_first_of("\n\x1b"), std::string::npos) << p.message;
  }
}

TEST(ScheduleJson, UnknownFieldsLeaveTheScheduleCompleteForValidation) {
  // An unknown field changes nothing, so validate() may judge the rest: both
  // kinds of problem can be reported together.
  const ScheduleDocument d = read_schedule_document(nlohmann::json::parse(
      R"({"lightrail_schedule": 1, "colour": "blue", "configs": [{"ports": [1]}],
          "steps": [{"config": 0, "duration_ps": 0}]})"));
  EXPECT_TRUE(d.complete);
  EXPECT_TRUE(has(d.problems, "colour", "unknown field"));
  EXPECT_EQ(d.problems.size(), 1u);
  const auto invalid = validate(d.schedule, DeviceCapabilities::reference());
  EXPECT_TRUE(has(invalid, "steps[0].duration_ps", "positive")) << to_string(invalid);

  // A field that could not be read leaves a gap: not complete.
  const ScheduleDocument gap = read_schedule_document(nlohmann::json::parse(
      R"({"lightrail_schedule": 1, "configs": [{"ports": [1]}], "steps": [{"config": 0}]})"));
  EXPECT_FALSE(gap.complete);
  EXPECT_TRUE(has(gap.problems, "steps[0].duration_ps", "missing"));
}

TEST(ScheduleJson, FilesThatAreNotSchedulesAreRefusedByName) {
  const std::string dir = ::testing::TempDir();
  try {
    load_schedule_file(dir);
    FAIL() << "a directory was read";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read the schedule file"), std::string::npos) << e.what();
  }
  // Endless input stops at the bound instead of filling memory.
  try {
    load_schedule_file("/dev/zero");
    FAIL() << "/dev/zero was read";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/zero: the schedule file is larger than"), std::string::npos)
        << e.what();
  }
  // A control character in the file name is escaped in the message.
  try {
    load_schedule_file(dir + "no\nsuch.json");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("no\\nsuch.json: cannot open"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lightrail
