#pragma once

#include <nlohmann/json.hpp>

#include "core/knobs.h"

namespace caliber {

// Where this process runs when Slurm started it: {"node", "slurm_job_id", "slurm_array_job_id",
// "slurm_array_task_id"} from the variables Slurm sets in a job; null outside a Slurm job. A
// shard records it in its identity and in every .complete marker, so the merged ops_status.csv
// can name the node and the array task that measured each op.
nlohmann::json slurm_task_env(const EnvLookup& env);

}  // namespace caliber
