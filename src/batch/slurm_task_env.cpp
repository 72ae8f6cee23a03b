#include "batch/slurm_task_env.h"

#include "core/run_identity.h"

namespace caliber {

nlohmann::json slurm_task_env(const EnvLookup& env) {
  auto job = env("SLURM_JOB_ID");
  if (!job || job->empty()) return nullptr;
  auto value = [&env](const char* name) { return env(name).value_or(""); };
  std::string node = value("SLURMD_NODENAME");
  return {{"node", node.empty() ? host_name() : node},
          {"slurm_job_id", *job},
          {"slurm_array_job_id", value("SLURM_ARRAY_JOB_ID")},
          {"slurm_array_task_id", value("SLURM_ARRAY_TASK_ID")}};
}

}  // namespace caliber
