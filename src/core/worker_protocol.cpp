#include "core/worker_protocol.h"

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace caliber {

std::string worker_request_line(const WorkerRequest& request) {
  nlohmann::json knobs = nlohmann::json::object();
  for (const auto& [name, value] : request.flags) {
    if (name != "op" && name != "out_dir") knobs[name] = value;
  }
  nlohmann::json line = {
      {"op", request.op}, {"out", request.out_dir}, {"log", request.log}, {"flags", knobs}};
  return line.dump() + "\n";
}

WorkerRequest parse_worker_request(const std::string& line) {
  nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  if (!json.is_object() || !json.contains("op") || !json["op"].is_string() ||
      !json.contains("out") || !json["out"].is_string()) {
    throw_usage("a request is {{\"op\", \"out\", \"flags\"}}");
  }
  WorkerRequest request;
  request.op = json["op"].get<std::string>();
  request.out_dir = json["out"].get<std::string>();
  if (json.contains("log") && json["log"].is_string()) request.log = json["log"].get<std::string>();
  nlohmann::json knobs = json.value("flags", nlohmann::json::object());
  if (!knobs.is_object()) throw_usage("\"flags\" is not an object");
  for (const auto& [name, value] : knobs.items()) {
    request.flags[name] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return request;
}

std::string worker_reply_line(const WorkerReply& reply) {
  nlohmann::json line = {{"op", reply.op}, {"exit", reply.exit_code}};
  if (!reply.error.empty()) line["error"] = reply.error;
  return line.dump() + "\n";
}

std::optional<WorkerReply> parse_worker_reply(const std::string& line) {
  nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
  if (!json.is_object() || !json.contains("exit") || !json["exit"].is_number_integer()) {
    return std::nullopt;
  }
  WorkerReply reply;
  reply.exit_code = json["exit"].get<int>();
  if (json.contains("op") && json["op"].is_string()) reply.op = json["op"].get<std::string>();
  if (json.contains("error") && json["error"].is_string())
    reply.error = json["error"].get<std::string>();
  return reply;
}

}  // namespace caliber
