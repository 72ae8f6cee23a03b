#pragma once

#include <cstdint>
#include <filesystem>
#include <system_error>

namespace caliber {

// What std::filesystem::remove_all(path, ec) does: removes `root` and everything below it,
// symlinks themselves and not what they point to; a missing root removes nothing and is no error.
// Returns how many entries it removed; `ec` holds the first failure, and what else could go, went.
//
// Not std::filesystem's own: libtorch.so exports a copy of remove_all that calls
// recursive_directory_iterator::__erase, a weak symbol no libstdc++ defines
// (pytorch/pytorch#133437), so in a torch-linked binary that binds remove_all to libtorch's copy
// (the H100 image's build did, where the CPU build binds it to libstdc++), removing a non-empty
// directory jumps to address 0. POSIX's nftw has no such twin.
std::uintmax_t remove_tree(const std::filesystem::path& root, std::error_code& ec);

}  // namespace caliber
