// vkcompute: sorting and N-body simulation in Vulkan compute shaders. The umbrella header.
#pragma once

#include "vkc/context.hpp"
#include "vkc/device_set.hpp"
#include "vkc/nbody.hpp"
#include "vkc/sort.hpp"
