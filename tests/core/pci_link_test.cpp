// A device's PCI link and NUMA node as vkc info reports them: read from a sysfs tree made here,
// so that every case (a full link, a missing file, a link sysfs calls "Unknown") runs anywhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/device_info.hpp"

namespace vkc::test {
namespace {

class PciLink : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("vkc_sysfs_" + std::to_string(std::random_device{}()));
    pci_ = {.known = true, .domain = 0, .bus = 0x1b, .device = 0, .function = 0};
    std::filesystem::create_directories(root_ / pci_.address());
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(root_ / pci_.address() / name) << text << "\n";
  }

  std::filesystem::path root_;
  DeviceInfo::Pci pci_;
};

TEST_F(PciLink, AddressIsSysfsFolderName) {
  EXPECT_EQ(pci_.address(), "0000:1b:00.0");
  const DeviceInfo::Pci other{.known = true, .domain = 0x10, .bus = 0xc3, .device = 0x1f, .function = 7};
  EXPECT_EQ(other.address(), "0010:c3:1f.7");
  EXPECT_EQ(DeviceInfo::Pci{}.address(), "") << "no address when the driver gave none";
}

TEST_F(PciLink, ReadsLinkAndNumaNode) {
  write("numa_node", "1");
  write("current_link_speed", "16.0 GT/s PCIe");
  write("max_link_speed", "32.0 GT/s PCIe");
  write("current_link_width", "8");
  write("max_link_width", "16");
  detail::read_pci_link(pci_, root_.string());
  EXPECT_EQ(pci_.numa_node, 1);
  EXPECT_EQ(pci_.link_speed, "16.0 GT/s PCIe");
  EXPECT_EQ(pci_.max_link_speed, "32.0 GT/s PCIe");
  EXPECT_EQ(pci_.link_width, 8u);
  EXPECT_EQ(pci_.max_link_width, 16u);
}

TEST_F(PciLink, WhatSysfsDoesNotTellStaysUnknown) {
  write("numa_node", "-1");  // a machine of one node
  write("current_link_speed", "Unknown");
  write("current_link_width", "garbage");
  detail::read_pci_link(pci_, root_.string());
  EXPECT_EQ(pci_.numa_node, -1);
  EXPECT_EQ(pci_.link_speed, "");
  EXPECT_EQ(pci_.max_link_speed, "") << "file missing";
  EXPECT_EQ(pci_.link_width, 0u);
  EXPECT_EQ(pci_.max_link_width, 0u) << "file missing";
}

TEST_F(PciLink, NothingIsReadWithoutAnAddress) {
  write("numa_node", "3");
  DeviceInfo::Pci unknown;
  detail::read_pci_link(unknown, root_.string());
  EXPECT_EQ(unknown.numa_node, -1);
}

}  // namespace
}  // namespace vkc::test
