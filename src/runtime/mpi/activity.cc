#include "runtime/mpi/activity.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

namespace vkhlo::runtime::mpi {
namespace {

constexpr size_t kCapacity = 1024;
char buffers[2][kCapacity];
size_t lengths[2];
std::atomic<int> current{-1};
struct sigaction previous;
std::atomic<bool> installed{false};

void WriteAll(const char* text, size_t n) {
  while (n > 0) {
    const ssize_t written = write(STDERR_FILENO, text, n);
    if (written <= 0) return;
    text += written;
    n -= static_cast<size_t>(written);
  }
}

void OnTerminate(int signal_number) {
  static const char kPrefix[] = "vkhlo: terminated (SIGTERM: mpirun ends the job when a rank dies or fails) while ";
  static const char kNothing[] = "vkhlo: terminated (SIGTERM) before taking part in a grid\n";
  const int i = current.load(std::memory_order_acquire);
  if (i < 0) {
    WriteAll(kNothing, sizeof kNothing - 1);
  } else {
    WriteAll(kPrefix, sizeof kPrefix - 1);
    WriteAll(buffers[i], lengths[i]);
    WriteAll("\n", 1);
  }
  sigaction(SIGTERM, &previous, nullptr);
  raise(signal_number);
}

}  // namespace

void SetActivity(std::string_view text) {
  const int next = current.load(std::memory_order_relaxed) == 0 ? 1 : 0;
  const size_t n = std::min(text.size(), kCapacity - 1);
  std::memcpy(buffers[next], text.data(), n);
  lengths[next] = n;
  current.store(next, std::memory_order_release);
}

void InstallTerminationReport() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = OnTerminate;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, &previous);
    installed.store(true);
  });
}

void UninstallTerminationReport() {
  if (installed.exchange(false)) sigaction(SIGTERM, &previous, nullptr);
}

}  // namespace vkhlo::runtime::mpi
