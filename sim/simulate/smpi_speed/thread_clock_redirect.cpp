// Preloaded (LD_PRELOAD) into smpimain when ringsim runs SMPI with smpi/simulate-computation:no.
//
// Why: SMPI starts and stops a thread CPU-time timer around every MPI call (smpi_bench_begin/end)
// even when simulate-computation is off and the value is thrown away. On Linux,
// clock_gettime(CLOCK_THREAD_CPUTIME_ID) is a real system call (~1.4 us here, several per message),
// while CLOCK_MONOTONIC is answered in user space by the vDSO (~27 ns). This library answers the
// thread CPU-time clock from CLOCK_MONOTONIC. Simulated time never reads either clock (it comes from
// the platform and smpi_execute_flops), so results are unchanged; only the host's work drops.
//
// Never preload it with simulate-computation on: SMPI would then inject wall time, not CPU time.
//
// Test hook: with RINGSIM_CLOCK_REDIRECT_REPORT=FILE in the environment, the library appends one line
// "redirected COUNT" to FILE at exit, so a test can tell that the lever was in effect.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dlfcn.h>

namespace {

using ClockGettime = int (*)(clockid_t, timespec*);

// Resolved once at load: the next clock_gettime in link order (glibc's, which uses the vDSO).
ClockGettime next_clock_gettime() {
  static const auto next = reinterpret_cast<ClockGettime>(dlsym(RTLD_NEXT, "clock_gettime"));
  return next;
}

// Counting is only paid for when a test asked for the report.
const char* const report_file = std::getenv("RINGSIM_CLOCK_REDIRECT_REPORT");
std::atomic<unsigned long long> redirected{0};

struct ReportAtExit {
  ~ReportAtExit() {
    if (report_file == nullptr) return;
    if (std::FILE* out = std::fopen(report_file, "a")) {
      std::fprintf(out, "redirected %llu\n", redirected.load());
      std::fclose(out);
    }
  }
} report_at_exit;

}  // namespace

extern "C" int clock_gettime(clockid_t clock, timespec* time) noexcept {
  if (clock == CLOCK_THREAD_CPUTIME_ID) {
    if (report_file != nullptr) redirected.fetch_add(1, std::memory_order_relaxed);
    clock = CLOCK_MONOTONIC;
  }
  return next_clock_gettime()(clock, time);
}
