#include "cli/app.h"

int main(int argc, char** argv) { return caliber::run_cli(argc, argv); }
