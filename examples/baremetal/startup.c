// Start-up code for the bare-metal runner on QEMU's Cortex-M boards: the
// vector table, the reset handler (FPU on, .bss cleared, C++ constructors,
// the command line from the debugger over semihosting) and fault handlers
// that report and exit instead of hanging. Small on purpose: a real
// firmware brings its own (CMSIS, a vendor SDK) and links the same
// libraries.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern uint32_t __stack_top;
extern uint32_t __bss_start__, __bss_end__;
extern void initialise_monitor_handles(void);  // newlib's semihosting I/O
extern void __libc_init_array(void);
extern int main(int argc, char** argv);

// newlib's __libc_init_array calls these (crti/crtn are not linked).
void _init(void) {}
void _fini(void) {}
// Static destructors register against this (crtbegin.o, not linked, has it).
void* __dso_handle = &__dso_handle;

enum { kMaxArgs = 32 };
static char* g_argv[kMaxArgs + 1];

#ifndef EMBER_STARTUP_MINIMAL
static char g_cmdline[1024];

// SYS_GET_CMDLINE (0x15): the command line QEMU was given with
// -semihosting-config arg=...
static int semihosting_call(int op, void* arg) {
  register int r0 __asm__("r0") = op;
  register void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}


static int split_command_line(void) {
  uint32_t block[2] = {(uint32_t)(uintptr_t)g_cmdline, sizeof(g_cmdline) - 1};
  if (semihosting_call(0x15, block) != 0) return 0;
  int argc = 0;
  char* p = g_cmdline;
  while (*p != '\0' && argc < kMaxArgs) {
    while (*p == ' ') *p++ = '\0';
    if (*p == '\0') break;
    g_argv[argc++] = p;
    while (*p != '\0' && *p != ' ') ++p;
  }
  g_argv[argc] = NULL;
  return argc;
}
#endif

void reset_handler(void) {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  // CPACR: full access to CP10/CP11 (the FPU and, on the M55, Helium).
  *(volatile uint32_t*)0xE000ED88 |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb");
#endif
  memset(&__bss_start__, 0, (size_t)((char*)&__bss_end__ - (char*)&__bss_start__));
#ifdef EMBER_STARTUP_MINIMAL
  // No semihosting, no stdio: what a firmware's own start-up would do.
  __libc_init_array();
  main(0, g_argv);
  for (;;) {
  }
#else
  initialise_monitor_handles();
  __libc_init_array();
  const int argc = split_command_line();
  exit(main(argc, g_argv));
#endif
}

static void fault(const char* what) {
#ifdef EMBER_STARTUP_MINIMAL
  (void)what;
  for (;;) {
  }
#else
  fprintf(stderr, "baremetal: %s fault\n", what);
  exit(70);
#endif
}
void nmi_handler(void) { fault("NMI"); }
void hard_fault_handler(void) { fault("hard"); }
void mem_manage_handler(void) { fault("memory management"); }
void bus_fault_handler(void) { fault("bus"); }
void usage_fault_handler(void) { fault("usage"); }
void default_handler(void) { fault("unexpected exception"); }

typedef void (*Handler)(void);
__attribute__((section(".vectors"), used)) const Handler g_vectors[16] = {
    (Handler)&__stack_top, reset_handler,       nmi_handler,         hard_fault_handler,
    mem_manage_handler,    bus_fault_handler,   usage_fault_handler, default_handler,
    0,                     0,                   0,                   default_handler,
    default_handler,       0,                   default_handler,     default_handler,
};
