#include "cli/candidate_caches.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace caliber {
namespace {

namespace fs = std::filesystem;

// A variable's value, or `fallback` where it is unset or empty.
std::string setting(const EnvLookup& env, const std::string& name, const std::string& fallback) {
  auto value = env(name);
  return value && !value->empty() ? *value : fallback;
}

// Calls `each` for every entry of `dir`; a folder that cannot be read ends the walk, not the run.
template <typename F>
void for_each_entry(const fs::path& dir, F&& each) {
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    each(*it);
  }
}

// FlagGems' code_cache.py: FLAGGEMS_CACHE_DIR, else ~/.flaggems; its winners in config_cache/.
std::string tuned_configs(const EnvLookup& env) {
  if (const std::string url = setting(env, "FLAGGEMS_DB_URL", ""); !url.empty()) {
    const std::string sqlite = "sqlite:///";
    if (!url.starts_with(sqlite)) {
      return fmt::format("FLAGGEMS_DB_URL ({}): not a file", url.substr(0, url.find(':')));
    }
    // SQLAlchemy's form: sqlite:///relative.db, sqlite:////absolute.db (FlagGems' own default).
    const fs::path file = url.substr(sqlite.size());
    std::error_code error;
    const auto bytes = fs::file_size(file, error);
    if (error) return fmt::format("{}: absent", file.string());
    return fmt::format("{}: 1 database, {} bytes", file.string(), bytes);
  }
  const fs::path dir =
      fs::path(setting(env, "FLAGGEMS_CACHE_DIR", setting(env, "HOME", "~") + "/.flaggems")) /
      "config_cache";
  std::error_code error;
  if (!fs::is_directory(dir, error)) return fmt::format("{}: absent", dir.string());
  int databases = 0;
  uintmax_t bytes = 0;
  for_each_entry(dir, [&](const fs::directory_entry& entry) {
    if (entry.path().extension() != ".db" || !entry.is_regular_file(error)) return;
    ++databases;
    bytes += entry.file_size(error);
  });
  if (databases == 0) return fmt::format("{}: empty", dir.string());
  return fmt::format("{}: {} database{}, {} bytes", dir.string(), databases,
                     databases == 1 ? "" : "s", bytes);
}

// Triton's knobs: TRITON_CACHE_DIR, else $TRITON_HOME (the user's home by default)/.triton/cache,
// a folder per compiled kernel.
std::string triton_kernels(const EnvLookup& env) {
  const fs::path base = setting(env, "TRITON_HOME", setting(env, "HOME", "~"));
  const fs::path dir = setting(env, "TRITON_CACHE_DIR", (base / ".triton" / "cache").string());
  std::error_code error;
  if (!fs::is_directory(dir, error)) return fmt::format("{}: absent", dir.string());
  int entries = 0;
  for_each_entry(dir, [&](const fs::directory_entry&) { ++entries; });
  if (entries == 0) return fmt::format("{}: empty", dir.string());
  return fmt::format("{}: {} entr{}", dir.string(), entries, entries == 1 ? "y" : "ies");
}

}  // namespace

std::map<std::string, std::string> candidate_caches(const EnvLookup& env) {
  return {{"flaggems_tuned_configs", tuned_configs(env)}, {"triton_kernels", triton_kernels(env)}};
}

}  // namespace caliber
