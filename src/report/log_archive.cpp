#include "report/log_archive.h"

#include <zlib.h>

#include <array>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/error.h"

namespace caliber {
namespace {

// gzread reads plain files unchanged, so one path serves both.
std::string read_maybe_gzip(const std::filesystem::path& path, const std::string& knob) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) throw_usage("{}: cannot read '{}'", knob, path.string());
  std::string out;
  std::array<char, 1 << 16> buffer{};
  int n = 0;
  while ((n = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0) {
    out.append(buffer.data(), static_cast<size_t>(n));
  }
  int error = 0;
  std::string message = n < 0 ? gzerror(file, &error) : "";
  gzclose(file);
  if (n < 0) throw_usage("{}: '{}' is not readable gzip data ({})", knob, path.string(), message);
  return out;
}

bool has_suffix(const std::string& name, const char* suffix) {
  return name.size() >= std::strlen(suffix) && name.ends_with(suffix);
}

// POSIX ustar: 512-byte headers (name at 0, octal size at 124, type at 156, prefix at 345),
// each member's data padded to 512 bytes, two zero blocks at the end.
std::vector<NamedText> tar_members(const std::string& data, const std::string& archive,
                                   const std::string& knob) {
  std::vector<NamedText> out;
  std::string long_name;
  size_t at = 0;
  while (at + 512 <= data.size()) {
    const char* h = data.data() + at;
    if (h[0] == '\0') break;
    std::string name(h, strnlen(h, 100));
    std::string prefix(h + 345, strnlen(h + 345, 155));
    if (std::memcmp(h + 257, "ustar", 5) == 0 && !prefix.empty()) name = prefix + "/" + name;
    size_t size = 0;
    try {
      size = std::stoul(std::string(h + 124, strnlen(h + 124, 12)), nullptr, 8);
    } catch (const std::exception&) {
      throw_usage("{}: '{}' is not a tar archive (bad header at byte {})", knob, archive, at);
    }
    char type = h[156];
    at += 512;
    if (at + size > data.size()) throw_usage("{}: '{}' is truncated", knob, archive);
    std::string body = data.substr(at, size);
    at += (size + 511) / 512 * 512;
    if (type == 'L') {  // GNU long name: the next member's name
      long_name = body.substr(0, body.find('\0'));
      continue;
    }
    if (!long_name.empty()) name = std::exchange(long_name, "");
    if (type == '0' || type == '\0') out.push_back({archive + ":" + name, std::move(body)});
  }
  return out;
}

}  // namespace

std::vector<NamedText> read_log_texts(const std::filesystem::path& path, const std::string& knob) {
  if (!std::filesystem::is_regular_file(path)) {
    throw_usage("{}: '{}' is not a file (accepted: a log, .gz, .tar, .tgz, .tar.gz)", knob,
                path.string());
  }
  std::string name = path.filename().string();
  std::string data = read_maybe_gzip(path, knob);
  if (has_suffix(name, ".tar") || has_suffix(name, ".tgz") || has_suffix(name, ".tar.gz")) {
    return tar_members(data, path.string(), knob);
  }
  return {{path.string(), std::move(data)}};
}

}  // namespace caliber
