// Request targets to routes: every route, and what is not one.
#include "routes.hpp"

#include <gtest/gtest.h>

namespace {

using namespace lightrail::daemon;

TEST(Routes, EveryRouteAndItsCalls) {
  EXPECT_EQ(parse_target("/v1/jobs").route, Route::kJobs);
  EXPECT_EQ(parse_target("/v1/fabric").route, Route::kFabric);
  EXPECT_EQ(parse_target("/metrics").route, Route::kMetrics);
  EXPECT_EQ(parse_target("/healthz").route, Route::kHealthz);
  EXPECT_EQ(parse_target("/readyz").route, Route::kReadyz);
  EXPECT_EQ(parse_target("/v1/version").route, Route::kVersion);
  for (Route r : {Route::kHealthz, Route::kReadyz, Route::kVersion}) {
    ASSERT_TRUE(call_of(r, "GET"));
    EXPECT_TRUE(answered_at_once(*call_of(r, "GET")));
    EXPECT_FALSE(call_of(r, "POST"));
  }
  EXPECT_FALSE(answered_at_once(Call::kList));
  Target t = parse_target("/v1/jobs/job-1.a_b~c");
  EXPECT_EQ(t.status, 0);
  EXPECT_EQ(t.route, Route::kJob);
  EXPECT_EQ(t.id, "job-1.a_b~c");
  t = parse_target("/v1/jobs/x/phase");
  EXPECT_EQ(t.route, Route::kJobPhase);
  EXPECT_EQ(t.id, "x");
  EXPECT_EQ(parse_target("/v1/jobs/x/progress").route, Route::kJobProgress);
  EXPECT_EQ(parse_target("/v1/jobs/x/phases").route, Route::kJobPhases);
  EXPECT_EQ(call_of(Route::kJobs, "POST"), Call::kSubmit);
  EXPECT_EQ(call_of(Route::kJobs, "GET"), Call::kList);
  EXPECT_EQ(call_of(Route::kJob, "DELETE"), Call::kRemove);
  EXPECT_EQ(call_of(Route::kJob, "GET"), Call::kGet);
  EXPECT_EQ(call_of(Route::kJobPhase, "POST"), Call::kPhase);
  EXPECT_EQ(call_of(Route::kJobProgress, "POST"), Call::kProgress);
  EXPECT_EQ(call_of(Route::kJobPhases, "POST"), Call::kReplacePhases);
  EXPECT_FALSE(call_of(Route::kJobPhases, "GET"));
  EXPECT_EQ(call_of(Route::kFabric, "GET"), Call::kFabric);
  EXPECT_EQ(call_of(Route::kMetrics, "GET"), Call::kMetrics);
  EXPECT_FALSE(call_of(Route::kJobs, "PUT"));
  EXPECT_FALSE(call_of(Route::kJobs, "get"));  // methods are case-sensitive
  EXPECT_FALSE(call_of(Route::kJobPhase, "GET"));
  EXPECT_FALSE(call_of(Route::kMetrics, "HEAD"));
  for (Call c : {Call::kSubmit, Call::kPhase, Call::kReplacePhases, Call::kProgress, Call::kRemove})
    EXPECT_TRUE(changes_state(c));
  for (Call c : {Call::kList, Call::kGet, Call::kFabric, Call::kMetrics}) EXPECT_FALSE(changes_state(c));
  EXPECT_FALSE(takes_body(Call::kRemove));
  EXPECT_STREQ(allowed_methods(Route::kJob), "GET, DELETE");
  EXPECT_STREQ(route_label(Route::kJobProgress), "/v1/jobs/{id}/progress");
  EXPECT_STREQ(route_label(Route::kJobPhases), "/v1/jobs/{id}/phases");
}

TEST(Routes, WhatIsNotARoute) {
  for (const char* p : {"/", "/v1", "/v1/", "/v1/jobs/", "/v1/jobs//phase", "/v1/jobs/a/", "/v1/jobs/a/b",
                        "/v1/jobs/a/phase/", "/metrics/", "/v1/fabric/x", "/V1/JOBS"}) {
    const Target t = parse_target(p);
    EXPECT_EQ(t.status, 404) << p;
    EXPECT_FALSE(t.message.empty());
  }
  for (const char* p : {"", "*", "v1/jobs", "http://127.0.0.1/v1/jobs", "/v1/jobs?a=1", "/metrics#x"}) {
    const Target t = parse_target(p);
    EXPECT_EQ(t.status, 400) << p;
    EXPECT_EQ(t.field, "target");
  }
  for (const std::string& id : {std::string(129, 'a'), std::string("a%20b"), std::string("a b"),
                                std::string("\x01"), std::string("\xc3\xa9"), std::string("a\"b")}) {
    const Target t = parse_target("/v1/jobs/" + id + "/phase");
    EXPECT_EQ(t.status, 400) << id;
    EXPECT_EQ(t.field, "id");
    EXPECT_EQ(t.message.find('\x01'), std::string::npos);  // escaped
  }
  EXPECT_EQ(parse_target("/v1/jobs/" + std::string(128, 'a')).status, 0);
}

}  // namespace
