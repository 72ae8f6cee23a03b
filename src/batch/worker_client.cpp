#include "batch/worker_client.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "batch/deadline.h"
#include "core/worker_protocol.h"

namespace caliber {
namespace {

constexpr int kPollSliceMs = 20;

bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

WorkerClient::WorkerClient(const ChildSpec& spec)
    : process_(std::make_unique<ChildProcess>(spec)) {}

ChildExit WorkerClient::ended(ChildExit::How how_if_running, double grace_s) {
  alive_ = false;
  if (auto done = process_->poll()) return *done;
  return process_->kill(how_if_running, grace_s);
}

ChildExit WorkerClient::run(const std::string& request_line, Deadline& deadline,
                            const std::atomic<bool>& stop, double grace_s) {
  auto started = Clock::now();
  ChildExit out = exchange(request_line, deadline, stop, grace_s);
  out.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return out;
}

ChildExit WorkerClient::exchange(const std::string& request_line, Deadline& deadline,
                                 const std::atomic<bool>& stop, double grace_s) {
  if (!alive_ || !write_all(process_->stdin_fd(), request_line)) {
    // It died between requests; give it a moment to be reaped so its exit says why.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return ended(ChildExit::How::kExited, grace_s);
  }
  while (true) {
    size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (std::optional<WorkerReply> reply = parse_worker_reply(line)) {
        ChildExit out;
        out.exit_code = reply->exit_code;
        return out;
      }
      continue;  // not an answer (stray output): keep reading
    }
    if (stop.load()) return ended(ChildExit::How::kInterrupted, grace_s);
    if (deadline.passed()) return ended(ChildExit::How::kTimedOut, grace_s);
    pollfd pfd{process_->stdout_fd(), POLLIN, 0};
    int ready = ::poll(&pfd, 1, kPollSliceMs);
    if (ready < 0 && errno != EINTR) return ended(ChildExit::How::kExited, grace_s);
    if (ready <= 0) continue;
    char chunk[4096];
    ssize_t n = ::read(process_->stdout_fd(), chunk, sizeof(chunk));
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // End of output without an answer: the worker is gone (or going); wait for its exit.
    auto grace_end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(grace_s));
    while (Clock::now() < grace_end) {
      if (auto done = process_->poll()) {
        alive_ = false;
        ChildExit out = *done;
        // A worker that exited 0 without answering still failed the request.
        if (out.how == ChildExit::How::kExited && out.exit_code == 0) out.exit_code = 1;
        return out;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(kPollSliceMs));
    }
    return ended(ChildExit::How::kTimedOut, grace_s);
  }
}

void WorkerClient::begin_shutdown() { process_->close_stdin(); }

void WorkerClient::finish_shutdown(double grace_s) {
  auto until = Clock::now() +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(grace_s));
  while (Clock::now() < until && !process_->poll()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kPollSliceMs));
  }
  process_->kill(ChildExit::How::kExited, grace_s);
  alive_ = false;
}

}  // namespace caliber
