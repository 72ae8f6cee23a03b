#pragma once

#include <filesystem>
#include <string_view>

namespace caliber {

// Writes a file so that a reader (or a crash) sees either the old or the new content, never a
// torn one: a temporary file beside the target, flushed to disk, then renamed over it.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// Appends one line and flushes it to disk, for logs that must survive a crash line by line.
void append_line_durable(const std::filesystem::path& path, std::string_view line);

std::string read_file(const std::filesystem::path& path);

}  // namespace caliber
