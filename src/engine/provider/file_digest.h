#pragma once

#include <string>

namespace caliber {

// SHA-256 of a file's bytes as 64 lowercase hex digits; throws a usage Error when the file
// cannot be read. Identifies exactly which build of a candidate library a run measured.
std::string sha256_of_file(const std::string& path);

// SHA-256 of `bytes`, as above.
std::string sha256_hex(const std::string& bytes);

}  // namespace caliber
