// The records the strategy writes to its journal (docs/lightraild.md,
// "Durability") and the fields each must have, so that a record that parses
// but was damaged stops the start naming itself instead of being half used.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace lightrail::daemon {

// "" when `record` is one the strategy writes, with every field it needs of
// the right kind (boards below `boards`); else what is wrong with it.
//   commit_intent {id, job, target_accuracy, wait_for_circuits, generation, boards[],
//                  owner?, idempotency_key?, submitted_ms?}
//   commit_done   {id, generation, ok, commit_ps?, stopped[]?}
//   admit         {id, job, target_accuracy, wait_for_circuits, owner?, idempotency_key?,
//                  submitted_ms?}
//   idempotency_key {owner, key, id, at_ms}: a key whose job is gone (deleted)
//   release, delete {id}
//   progress      {id, accuracy}
//   phases        {id, job}: the job with replaced phases (a job with no boards)
//   generation    {next, next_job}: the next generation and job number, both >= 1
std::string record_problem(const nlohmann::json& record, size_t boards);

}  // namespace lightrail::daemon
