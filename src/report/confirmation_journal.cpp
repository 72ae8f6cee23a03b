#include "report/confirmation_journal.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "report/compare.h"

namespace caliber {
namespace {

double screen_median(const std::optional<ResultRow>& row) {
  if (!row) return 0;
  return headline_ms(*row);
}

using RowKey = std::tuple<std::string, std::string, std::string, std::string, int>;

RowKey key_of(const RowComparison& row) {
  return {row.op, row.dtype, row.provider, row.shape, row.occurrence};
}

// JSON numbers round-trip a double, but a journal edited by hand or written by another build may
// not: medians match within a part in 10^9.
bool same_median(double journal, double screen) {
  return std::abs(journal - screen) <= 1e-9 * std::max(std::abs(journal), std::abs(screen));
}

}  // namespace

std::string confirmation_journal_line(const RowComparison& row, const Confirmation& c) {
  nlohmann::json line = {{"op", row.op},
                         {"dtype", row.dtype},
                         {"provider", row.provider},
                         {"shape", row.shape},
                         {"occurrence", row.occurrence},
                         {"a_median_ms", screen_median(row.a)},
                         {"b_median_ms", screen_median(row.b)},
                         {"rounds_asked", c.rounds_asked},
                         {"speedups", c.speedups},
                         {"note", c.note}};
  return line.dump();
}

std::map<size_t, Confirmation> read_confirmation_journal(const std::filesystem::path& path,
                                                         const Comparison& comparison, int rounds) {
  std::map<size_t, Confirmation> out;
  std::ifstream in(path);
  if (!in) return out;
  std::map<RowKey, size_t> index;
  for (size_t i = 0; i < comparison.rows.size(); ++i) {
    if (needs_confirmation(comparison.rows[i])) index[key_of(comparison.rows[i])] = i;
  }
  std::string text;
  while (std::getline(in, text)) {
    nlohmann::json line = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!line.is_object()) continue;  // a line torn by a crash
    try {
      RowKey key{line.at("op").get<std::string>(), line.at("dtype").get<std::string>(),
                 line.at("provider").get<std::string>(), line.at("shape").get<std::string>(),
                 line.at("occurrence").get<int>()};
      auto it = index.find(key);
      if (it == index.end()) continue;
      const RowComparison& row = comparison.rows[it->second];
      if (line.at("rounds_asked").get<int>() != rounds ||
          !same_median(line.at("a_median_ms").get<double>(), screen_median(row.a)) ||
          !same_median(line.at("b_median_ms").get<double>(), screen_median(row.b))) {
        continue;
      }
      Confirmation c;
      c.rounds_asked = rounds;
      c.speedups = line.at("speedups").get<std::vector<double>>();
      c.note = line.value("note", "");
      out[it->second] = std::move(c);
    } catch (const nlohmann::json::exception&) {
      continue;  // a line of another shape: not this pass's
    }
  }
  return out;
}

}  // namespace caliber
