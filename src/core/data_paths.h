#pragma once

#include <filesystem>

namespace caliber {

// Where caliber's data files live (shapes/, ops/): $CALIBER_DATA_DIR when set, else the source
// tree the binary was built from.
std::filesystem::path data_dir();
std::filesystem::path shapes_dir();                 // data_dir()/shapes
std::filesystem::path default_dismiss_list();       // data_dir()/ops/dismiss.yaml
std::filesystem::path default_capture_deny_list();  // data_dir()/ops/capture_deny.yaml
std::filesystem::path default_op_costs();           // data_dir()/ops/op_costs.csv

}  // namespace caliber
