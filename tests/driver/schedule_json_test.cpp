#include "lightrail/schedule_json.hpp"

#include <gtest/gtest.h>

#include "lightrail/errors.hpp"
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

}  // namespace
}  // namespace lightrail
