#include "cli/candidate_caches.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace caliber {
namespace {

namespace fs = std::filesystem;

std::string home(const EnvLookup& env) {
  auto value = env("HOME");
  return value && !value->empty() ? *value : "~";
}

// FlagGems' code_cache.py: FLAGGEMS_CACHE_DIR, else ~/.flaggems; its winners in config_cache/.
std::string tuned_configs(const EnvLookup& env) {
  if (auto url = env("FLAGGEMS_DB_URL"); url && !url->empty()) {
    const std::string sqlite = "sqlite:///";
    if (!url->starts_with(sqlite)) {
      return fmt::format("FLAGGEMS_DB_URL ({}): not a file", url->substr(0, url->find(':')));
    }
    // SQLAlchemy's form: sqlite:///relative.db, sqlite:////absolute.db (FlagGems' own default).
    const fs::path file = url->substr(sqlite.size());
    std::error_code error;
    const auto bytes = fs::file_size(file, error);
    if (error) return fmt::format("{}: absent", file.string());
    return fmt::format("{}: 1 database, {} bytes", file.string(), bytes);
  }
  auto root = env("FLAGGEMS_CACHE_DIR");
  const fs::path dir =
      fs::path(root && !root->empty() ? *root : home(env) + "/.flaggems") / "config_cache";
  std::error_code error;
  if (!fs::is_directory(dir, error)) return fmt::format("{}: absent", dir.string());
  int databases = 0;
  uintmax_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() != ".db" || !entry.is_regular_file(error)) continue;
    ++databases;
    bytes += entry.file_size(error);
  }
  if (databases == 0) return fmt::format("{}: empty", dir.string());
  return fmt::format("{}: {} database{}, {} bytes", dir.string(), databases,
                     databases == 1 ? "" : "s", bytes);
}

// Triton's knobs: TRITON_CACHE_DIR, else $TRITON_HOME (the user's home by default)/.triton/cache,
// a folder per compiled kernel.
std::string triton_kernels(const EnvLookup& env) {
  auto root = env("TRITON_CACHE_DIR");
  auto triton_home = env("TRITON_HOME");
  const fs::path base = triton_home && !triton_home->empty() ? *triton_home : home(env);
  const fs::path dir = root && !root->empty() ? fs::path(*root) : base / ".triton" / "cache";
  std::error_code error;
  if (!fs::is_directory(dir, error)) return fmt::format("{}: absent", dir.string());
  int entries = 0;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    ++entries;
  }
  if (entries == 0) return fmt::format("{}: empty", dir.string());
  return fmt::format("{}: {} entr{}", dir.string(), entries, entries == 1 ? "y" : "ies");
}

}  // namespace

std::map<std::string, std::string> candidate_caches(const EnvLookup& env) {
  return {{"flaggems_tuned_configs", tuned_configs(env)}, {"triton_kernels", triton_kernels(env)}};
}

}  // namespace caliber
