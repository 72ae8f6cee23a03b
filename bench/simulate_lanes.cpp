// Replays a screen's per-op wall times through the batch's own WorkQueue on N virtual lanes, to
// see how the stable-hash placement, work stealing and op order behave at lane counts no lent
// machine has (4, 8, 64 GPUs). Time is virtual: a lane that finishes an op asks the queue for
// the next one at that instant, exactly as a lane thread does.
//
//   simulate_lanes --status ops_status.csv [--catalog ops.json] [--lanes 1,2,4,8,64]
//                  [--lane-start-s S] [--json OUT]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <queue>
#include <sstream>

#include "batch/op_catalog.h"
#include "batch/work_queue.h"
#include "core/csv.h"

namespace {

struct Op {
  std::string name;
  double wall_s = 0;
  double estimate = 0;  // cases at the screen's level, from the catalog
};

struct LaneResult {
  double busy_s = 0;
  double end_s = 0;
  int ops = 0;
  int stolen = 0;
};

struct Outcome {
  double wall_s = 0;
  std::vector<LaneResult> lanes;
  double tail_s = 0;  // the most idle lane's wait between its last op and the end
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Outcome simulate(const std::vector<Op>& ops, size_t lanes, double lane_start_s,
                 const std::vector<double>& costs) {
  std::vector<std::string> names;
  for (const Op& op : ops) names.push_back(op.name);
  caliber::WorkQueue queue(names, lanes, costs);
  Outcome out;
  out.lanes.resize(lanes);
  // (time the lane is free, lane): the earliest free lane asks first, ties by lane index as the
  // threads would race; the order of ties does not change the totals.
  using Free = std::pair<double, size_t>;
  std::priority_queue<Free, std::vector<Free>, std::greater<>> free;
  for (size_t l = 0; l < lanes; ++l) free.push({lane_start_s, l});
  while (!free.empty()) {
    auto [t, l] = free.top();
    free.pop();
    std::optional<size_t> next = queue.next(l);
    if (!next) {
      out.lanes[l].end_s = t;
      continue;
    }
    const Op& op = ops[*next];
    LaneResult& lane = out.lanes[l];
    lane.busy_s += op.wall_s;
    ++lane.ops;
    if (caliber::home_lane(op.name, lanes) != l) ++lane.stolen;
    free.push({t + op.wall_s, l});
  }
  double first_end = 1e300;
  for (const LaneResult& lane : out.lanes) {
    out.wall_s = std::max(out.wall_s, lane.end_s);
    first_end = std::min(first_end, lane.end_s);
  }
  out.tail_s = out.wall_s - first_end;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Replay per-op wall times through the batch's WorkQueue on virtual lanes"};
  std::string status_path, catalog_path, costs_path, json_path;
  std::vector<size_t> lane_counts = {1, 2, 4, 8, 64};
  double lane_start_s = 0;
  app.add_option("--status", status_path, "ops_status.csv of a real screen (wall_s per op)")
      ->required();
  app.add_option("--catalog", catalog_path,
                 "caliber ops --json at the screen's level: cases per op for the estimate order");
  app.add_option("--costs", costs_path,
                 "ops_status.csv of another screen: its wall times as the expected costs (the "
                 "order a batch gets from --costs-from), instead of the replayed screen's own");
  app.add_option("--lanes", lane_counts, "lane counts to simulate")->delimiter(',');
  app.add_option("--lane-start-s", lane_start_s, "a lane's start before its first op");
  app.add_option("--json", json_path, "write every outcome as JSON here");
  CLI11_PARSE(app, argc, argv);

  caliber::CsvTable table(caliber::parse_csv(read_file(status_path)));
  std::map<std::string, double> cases;
  if (!catalog_path.empty()) {
    for (const caliber::OpEntry& e : caliber::parse_op_catalog(read_file(catalog_path))) {
      cases[e.name] = static_cast<double>(std::max(1, e.shape_count)) *
                      static_cast<double>(std::max<size_t>(1, e.dtypes.size()));
    }
  }
  std::vector<Op> ops;
  double total = 0;
  for (size_t r = 0; r < table.size(); ++r) {
    if (table.at(r, "wall_s").empty()) continue;
    Op op{table.at(r, "op"), std::stod(table.at(r, "wall_s")), 0};
    op.estimate = cases.count(op.name) ? cases[op.name] : 0;
    total += op.wall_s;
    ops.push_back(op);
  }

  std::vector<std::pair<std::string, std::vector<double>>> orders = {{"selection", {}}};
  if (!cases.empty()) {
    std::vector<double> est;
    for (const Op& op : ops) est.push_back(op.estimate);
    orders.push_back({"longest-first (cases)", est});
  }
  std::vector<double> measured;
  for (const Op& op : ops) measured.push_back(op.wall_s);
  orders.push_back({"longest-first (own walls)", measured});
  if (!costs_path.empty()) {
    caliber::CsvTable other(caliber::parse_csv(read_file(costs_path)));
    std::map<std::string, double> wall;
    for (size_t r = 0; r < other.size(); ++r) {
      if (!other.at(r, "wall_s").empty())
        wall[other.at(r, "op")] = std::stod(other.at(r, "wall_s"));
    }
    std::vector<double> costs;
    for (const Op& op : ops) costs.push_back(wall.count(op.name) ? wall[op.name] : 0.0);
    orders.push_back({"longest-first (--costs)", costs});
  }

  nlohmann::json all = nlohmann::json::array();
  std::cout << ops.size() << " ops, " << total << " s of op wall time, lane start " << lane_start_s
            << " s\n";
  std::cout << "order | lanes | wall s | speedup | lane busy s min-max | tail s | tail % | "
               "stolen\n";
  for (const auto& [order, costs] : orders) {
    double one = simulate(ops, 1, lane_start_s, costs).wall_s;
    for (size_t lanes : lane_counts) {
      Outcome o = simulate(ops, lanes, lane_start_s, costs);
      double busy_min = 1e300, busy_max = 0;
      int stolen = 0;
      for (const LaneResult& l : o.lanes) {
        busy_min = std::min(busy_min, l.busy_s);
        busy_max = std::max(busy_max, l.busy_s);
        stolen += l.stolen;
      }
      std::printf("%s | %zu | %.1f | %.2fx | %.1f-%.1f | %.1f | %.1f%% | %d\n", order.c_str(),
                  lanes, o.wall_s, one / o.wall_s, busy_min, busy_max, o.tail_s,
                  100.0 * o.tail_s / o.wall_s, stolen);
      nlohmann::json row = {{"order", order},
                            {"lanes", lanes},
                            {"wall_s", o.wall_s},
                            {"speedup", one / o.wall_s},
                            {"tail_s", o.tail_s},
                            {"tail_fraction", o.tail_s / o.wall_s},
                            {"stolen", stolen},
                            {"lane_busy_s", nlohmann::json::array()},
                            {"lane_end_s", nlohmann::json::array()}};
      for (const LaneResult& l : o.lanes) {
        row["lane_busy_s"].push_back(l.busy_s);
        row["lane_end_s"].push_back(l.end_s);
      }
      all.push_back(row);
    }
  }
  if (!json_path.empty()) std::ofstream(json_path) << all.dump(1) << "\n";
  return 0;
}
