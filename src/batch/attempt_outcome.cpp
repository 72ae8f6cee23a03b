#include "batch/attempt_outcome.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <initializer_list>

#include "core/text_util.h"

namespace caliber {
namespace {

constexpr std::streamoff kLogTailBytes = 64 * 1024;

bool mentions_error(const std::string& line) {
  std::string lower;
  for (char c : line) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"error", "fatal", "exception", "failed", "abort"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::string AttemptOutcome::signature() const {
  std::string blurred;
  for (char c : error) {
    bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
    if (!digit) {
      blurred += c;
    } else if (blurred.empty() || blurred.back() != '#') {
      blurred += '#';
    }
  }
  return fmt::format("{}|{}|{}|{}", to_string(state), exit_code ? *exit_code : -1, signal, blurred);
}

AttemptOutcome classify_exit(const ChildExit& exit, double timeout_s,
                             const std::string& log_error) {
  AttemptOutcome out;
  out.wall_s = exit.wall_s;
  switch (exit.how) {
    case ChildExit::How::kTimedOut:
      out.state = OpState::kHung;
      out.error = fmt::format("timed out after {:.0f} s; process group killed", timeout_s);
      return out;
    case ChildExit::How::kInterrupted:
      out.state = OpState::kInterrupted;
      out.error = "interrupted; process group killed";
      return out;
    case ChildExit::How::kSignaled:
      out.state = OpState::kCrashed;
      out.signal = exit.signal;
      out.error = fmt::format("killed by {}", signal_name(exit.signal));
      if (!log_error.empty()) out.error += ": " + log_error;
      return out;
    case ChildExit::How::kExited:
      break;
  }
  out.exit_code = exit.exit_code;
  switch (exit.exit_code) {
    case 0:
      out.state = OpState::kOk;
      return out;
    case 2:
      out.state = OpState::kBadInput;
      break;
    case 3:
      out.state = OpState::kDeviceFatal;
      break;
    default:
      out.state = OpState::kFailed;
      break;
  }
  out.error = log_error.empty() ? fmt::format("exit {}", exit.exit_code) : log_error;
  return out;
}

std::string error_line_from_log(const std::filesystem::path& log) {
  std::ifstream in(log, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(std::max<std::streamoff>(0, size - kLogTailBytes));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string last;
  std::string last_error;
  for (const auto& raw : split(text, '\n')) {
    std::string line = trim(raw);
    if (line.empty()) continue;
    last = line;
    if (mentions_error(line)) last_error = line;
  }
  return one_line(last_error.empty() ? last : last_error);
}

bool should_retry(const std::vector<AttemptOutcome>& attempts, int max_retries) {
  if (attempts.empty()) return true;
  const AttemptOutcome& last = attempts.back();
  if (!is_failure(last.state) || last.state == OpState::kBadInput) return false;
  if (static_cast<int>(attempts.size()) > max_retries) return false;
  if (attempts.size() >= 2 && attempts[attempts.size() - 2].signature() == last.signature()) {
    return false;
  }
  return true;
}

}  // namespace caliber
