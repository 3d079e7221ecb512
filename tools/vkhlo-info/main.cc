// vkhlo-info: every Vulkan device with the features and limits vkhlo cares about, and which one
// vkhlo would run on (and why). With VKHLO_PROFILE=mobile it shows the masked view.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

#include "device/instance.h"
#include "device/llvmpipe_width.h"
#include "device/physical_device.h"
#include "device/profile.h"
#include "support/env.h"
#include "tools/vkhlo-info/capabilities_report.h"

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-info: Vulkan devices, their compute features and limits, and vkhlo's choice"};
  bool json = false;
  app.add_flag("--json", json, "print a JSON document instead of text");
  CLI11_PARSE(app, argc, argv);

  using namespace vkhlo;
  auto fail = [](const Status& status) {
    std::fprintf(stderr, "vkhlo-info: %s\n", status.ToString().c_str());
    return 1;
  };
  auto profile = device::ProfileFromEnvironment();
  if (!profile.ok()) return fail(profile.status());
  auto instance = device::Instance::Create(device::InstanceOptions::FromEnvironment());
  if (!instance.ok()) return fail(instance.status());
  auto devices = (*instance)->EnumerateDevices();
  if (!devices.ok()) return fail(devices.status());
  auto choice = device::ChooseDevice(*devices, GetEnv("VKHLO_DEVICE"));

  if (json) {
    nlohmann::json out;
    out["profile"] = device::ProfileName(*profile);
    out["llvmpipe_width"] = device::PreferWideLlvmpipeVectors();
    out["devices"] = nlohmann::json::array();
    for (const auto& d : *devices) {
      out["devices"].push_back(tools::CapabilitiesJson(device::ApplyProfile(d.capabilities, *profile)));
    }
    if (choice.ok()) {
      out["selected"] = {{"index", choice->index}, {"reason", choice->reason}};
    } else {
      out["selected"] = {{"index", -1}, {"reason", choice.status().message()}};
    }
    std::printf("%s\n", out.dump(2).c_str());
    return choice.ok() ? 0 : 1;
  }

  std::printf("vkhlo-info: %zu Vulkan device%s (capability profile: %s)\n", devices->size(),
              devices->size() == 1 ? "" : "s", std::string(device::ProfileName(*profile)).c_str());
  for (const auto& d : *devices) {
    std::printf("\n[%d]%s", d.index, tools::CapabilitiesText(device::ApplyProfile(d.capabilities, *profile)).c_str());
    std::string unusable = device::UnusableReason(d.capabilities);
    if (!unusable.empty()) std::printf("    not usable: %s\n", unusable.c_str());
  }
  if (!choice.ok()) return fail(choice.status());
  std::printf("\nllvmpipe width: %s\n", device::PreferWideLlvmpipeVectors().c_str());
  std::printf("selected: [%d] %s — %s\n", choice->index, (*devices)[choice->index].capabilities.name.c_str(),
              choice->reason.c_str());
  return 0;
}
