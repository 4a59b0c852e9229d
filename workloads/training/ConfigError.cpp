#include "workloads/training/ConfigError.hpp"
