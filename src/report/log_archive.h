#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace caliber {

// One text read from a log file or from a member of a log archive.
struct NamedText {
  std::string name;  // the file, or "archive.tgz:member"
  std::string text;
};

// The texts of `path`: a plain file, a gzip-compressed one (.gz), or every regular member of a
// tar archive, compressed or not (.tar, .tgz, .tar.gz), so that logs committed compressed are
// read where they lie. A usage error naming `knob` when the file is missing or unreadable.
std::vector<NamedText> read_log_texts(const std::filesystem::path& path, const std::string& knob);

}  // namespace caliber
