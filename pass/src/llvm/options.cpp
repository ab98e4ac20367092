// LLVM's own boolean and unsigned command-line options, set for the length
// of one pass pipeline the pass runs itself (llvm/options.rs).

#include "llvm/Support/CommandLine.h"

using namespace llvm;

// Sets the registered `cl::opt<T>` `Name` to `Value`; returns its value
// before as a long long, or -1 when this LLVM has no option of that name.
// Callers name only options LLVM declares as `cl::opt<T>`, which makes the
// cast sound (LLVM is built without RTTI, so it cannot be checked here).
template <typename T> static long long setOption(const char *Name, T Value) {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Name);
  if (It == Options.end())
    return -1;
  auto *Flag = static_cast<cl::opt<T> *>(It->second);
  T Before = Flag->getValue();
  Flag->setValue(Value);
  return static_cast<long long>(Before);
}

// A `cl::opt<bool>`: its value before (0 or 1), or -1.
extern "C" int sl1_set_bool_option(const char *Name, bool Value) {
  return static_cast<int>(setOption<bool>(Name, Value));
}

// A `cl::opt<unsigned>`: its value before, or -1.
extern "C" long long sl1_set_unsigned_option(const char *Name, unsigned Value) {
  return setOption<unsigned>(Name, Value);
}

// Gives the registered option `Name` the value `Value` as if the command
// line had, unless the command line named it; returns 1 when set, 0 when
// the command line named it, -1 when this LLVM has no such option or the
// value does not parse.
extern "C" int sl1_default_option(const char *Name, const char *Value) {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Name);
  if (It == Options.end())
    return -1;
  cl::Option *Option = It->second;
  if (Option->getNumOccurrences())
    return 0;
  return Option->addOccurrence(0, Name, Value) ? -1 : 1;
}
