# The S-L1 CMake package: the clang plugin libsl1_pass.so for CUDA targets
# compiled by clang (CMAKE_CUDA_COMPILER=clang++-22).
#
#   find_package(SL1 0.1 REQUIRED)
#   add_executable(app app.cu)
#   sl1_target(app)                       # S-L1 on app's CUDA sources
#
# Sets SL1_PLUGIN (the plugin's path), SL1_VERSION and SL1_LLVM_VERSION_MAJOR
# (the clang major the plugin loads into). The plugin is SL1_PLUGIN when given
# (a CMake or environment variable), else the one of this package: lib/ of an
# installed prefix (this file in <prefix>/lib/cmake/SL1), or target/release
# then target/debug of the S-L1 checkout (this file in its cmake/).
# docs/cmake.md has the details and every option of sl1_target.

if(CMAKE_VERSION VERSION_LESS 3.18)
  set(SL1_FOUND FALSE)
  set(SL1_NOT_FOUND_MESSAGE
      "S-L1 needs CMake 3.18 or newer (CUDA compiled by clang); this is ${CMAKE_VERSION}")
  return()
endif()

# The LLVM of libsl1_pass.so (sl1-pass's default feature llvm22): a pass
# plugin loads only into the clang of its own LLVM. The plugins for other
# LLVMs are named by their major, libsl1_pass-19.so (ci/build-plugins).
set(SL1_LLVM_VERSION_MAJOR 22)

# With CUDA enabled before find_package, the plugin of its clang's major.
set(_sl1_names "")
if(CMAKE_CUDA_COMPILER_VERSION MATCHES "^([0-9]+)" AND NOT CMAKE_MATCH_1 STREQUAL "22")
  list(APPEND _sl1_names "libsl1_pass-${CMAKE_MATCH_1}.so")
endif()
list(APPEND _sl1_names "libsl1_pass.so")
set(_sl1_candidates "")
if(SL1_PLUGIN)
  set(_sl1_candidates "${SL1_PLUGIN}")
elseif(NOT "$ENV{SL1_PLUGIN}" STREQUAL "")
  set(_sl1_candidates "$ENV{SL1_PLUGIN}")
else()
  foreach(_sl1_dir "${CMAKE_CURRENT_LIST_DIR}/../.." "${CMAKE_CURRENT_LIST_DIR}/../target/release"
                   "${CMAKE_CURRENT_LIST_DIR}/../target/debug")
    foreach(_sl1_name IN LISTS _sl1_names)
      list(APPEND _sl1_candidates "${_sl1_dir}/${_sl1_name}")
    endforeach()
  endforeach()
  unset(_sl1_dir)
  unset(_sl1_name)
endif()
unset(_sl1_names)
set(_sl1_found "")
foreach(_sl1_candidate IN LISTS _sl1_candidates)
  get_filename_component(_sl1_candidate "${_sl1_candidate}" ABSOLUTE)
  if(EXISTS "${_sl1_candidate}" AND NOT IS_DIRECTORY "${_sl1_candidate}")
    set(_sl1_found "${_sl1_candidate}")
    break()
  endif()
endforeach()
if(NOT _sl1_found)
  list(JOIN _sl1_candidates ", " _sl1_looked)
  set(SL1_FOUND FALSE)
  string(CONCAT SL1_NOT_FOUND_MESSAGE
      "the S-L1 clang plugin libsl1_pass.so is missing (looked at: ${_sl1_looked}). "
      "Build it in the S-L1 checkout with `cargo build --release -p sl1-pass`, or "
      "point SL1_PLUGIN (-DSL1_PLUGIN=/path/to/libsl1_pass.so, or the environment "
      "variable) at it.")
  unset(_sl1_candidates)
  unset(_sl1_candidate)
  unset(_sl1_found)
  unset(_sl1_looked)
  return()
endif()
set(SL1_PLUGIN "${_sl1_found}")
# A plugin named for another LLVM (libsl1_pass-19.so) loads into that clang.
if(SL1_PLUGIN MATCHES "libsl1_pass-([0-9]+)\\.so$")
  set(SL1_LLVM_VERSION_MAJOR "${CMAKE_MATCH_1}")
endif()

# A file the package ships, into <var>: beside this file when installed, in
# <dir> of the checkout; else the package is not found, saying which file.
function(_sl1_find_shipped var file dir)
  foreach(candidate "${CMAKE_CURRENT_LIST_DIR}/${file}"
                    "${CMAKE_CURRENT_LIST_DIR}/../${dir}/${file}")
    if(EXISTS "${candidate}")
      get_filename_component(found "${candidate}" ABSOLUTE)
      set(${var} "${found}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(SL1_FOUND FALSE PARENT_SCOPE)
  set(SL1_NOT_FOUND_MESSAGE
      "${file} of S-L1 is missing beside ${CMAKE_CURRENT_LIST_FILE}; reinstall S-L1 (ci/package)"
      PARENT_SCOPE)
endfunction()

# The S-L1 runtime every target with S-L1 links (sl1-driver's too): wrappers
# of the CUDA runtime's launch functions that give every launch of a kernel
# with lines its buffer, whichever file makes it.
_sl1_find_shipped(SL1_RUNTIME_SOURCE launches.c driver/runtime)
# The functions it wraps (driver/src/launch_runtime.rs: WRAPPED).
set(SL1_WRAPPED_LAUNCHES cudaLaunchKernel cudaLaunchKernel_ptsz cudaLaunchCooperativeKernel
    cudaLaunchCooperativeKernel_ptsz cudaLaunchKernelExC cudaLaunchKernelExC_ptsz)
# The nvcc prelude every CUDA source gets, as sl1-driver gives it
# (driver/src/nvcc_prelude.rs): nvcc's version macros, host min and max,
# CUDA 12.8's __nv_atomic_*.
_sl1_find_shipped(SL1_NVCC_PRELUDE sl1_nvcc_prelude.h driver/include)
if(NOT SL1_RUNTIME_SOURCE OR NOT SL1_NVCC_PRELUDE)
  return()
endif()
unset(_sl1_candidates)
unset(_sl1_candidate)
unset(_sl1_found)

if(NOT COMMAND sl1_target)
  # sl1_target(<target> [NO_TRANSFORM] [NO_DEVICE_TUNING] [NO_NVCC_PRELUDE]
  #            [LINE_BUFFER launch|static] [REPORT_DIR <dir>]
  #            [OPTIONS <-sl1-option>...])
  #
  # Loads the plugin into clang's compiles of <target>'s CUDA sources, with
  # the options sl1-driver gives its device compile. Each CUDA source the
  # target has when this is called writes its JSON report to
  # <REPORT_DIR>/<source path>.json (default REPORT_DIR:
  # <target's binary dir>/sl1/<target>), listed in the target property
  # SL1_REPORTS, and gets launch-sized line buffers (LINE_BUFFER launch, the
  # default: the host compile of the same source gives each launch its bytes
  # from that report). CUDA sources added later are transformed too, with
  # static line buffers and no report.
  function(sl1_target target)
    cmake_parse_arguments(PARSE_ARGV 1 arg "NO_TRANSFORM;NO_DEVICE_TUNING;NO_NVCC_PRELUDE"
                          "LINE_BUFFER;REPORT_DIR" "OPTIONS")
    if(arg_UNPARSED_ARGUMENTS)
      message(FATAL_ERROR "sl1_target(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT TARGET "${target}")
      message(FATAL_ERROR "sl1_target(${target}): no such target")
    endif()
    if(NOT CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
      if(CMAKE_CUDA_COMPILER_ID)
        set(found "${CMAKE_CUDA_COMPILER_ID} (${CMAKE_CUDA_COMPILER})")
      else()
        set(found "none: CUDA is not enabled")
      endif()
      message(FATAL_ERROR
              "sl1_target(${target}): S-L1 is a clang plugin, so the CUDA compiler must be "
              "clang ${SL1_LLVM_VERSION_MAJOR}: enable CUDA (project(... LANGUAGES CUDA)) and "
              "configure a fresh build directory with -DCMAKE_CUDA_COMPILER=clang++-"
              "${SL1_LLVM_VERSION_MAJOR}; the CUDA compiler here is ${found}")
    endif()
    string(REGEX MATCH "^[0-9]+" major "${CMAKE_CUDA_COMPILER_VERSION}")
    if(NOT major STREQUAL "${SL1_LLVM_VERSION_MAJOR}")
      message(FATAL_ERROR
              "sl1_target(${target}): the S-L1 plugin ${SL1_PLUGIN} is built for LLVM "
              "${SL1_LLVM_VERSION_MAJOR} and loads only into clang ${SL1_LLVM_VERSION_MAJOR}; "
              "the CUDA compiler is clang ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER})")
    endif()
    if(NOT arg_LINE_BUFFER)
      set(arg_LINE_BUFFER launch)
    endif()
    if(NOT arg_LINE_BUFFER MATCHES "^(launch|static)$")
      message(FATAL_ERROR
              "sl1_target(${target}): LINE_BUFFER is launch or static, not ${arg_LINE_BUFFER}")
    endif()
    get_target_property(binary_dir "${target}" BINARY_DIR)
    get_target_property(source_dir "${target}" SOURCE_DIR)
    if(NOT arg_REPORT_DIR)
      set(arg_REPORT_DIR "${binary_dir}/sl1/${target}")
    endif()
    get_filename_component(report_dir "${arg_REPORT_DIR}" ABSOLUTE BASE_DIR "${binary_dir}")

    # Every CUDA source of the target: the plugin and the options that do
    # not name a file. Device-only flags go through -Xarch_device, each as
    # one SHELL: option so that CMake does not merge the repeated flag.
    set(options
        "-fpass-plugin=${SL1_PLUGIN}"
        # The classic offload path the plugin is built and tested with;
        # clang 22's new driver links through clang-linker-wrapper and nvlink.
        "--no-offload-new-driver"
        "SHELL:-Xarch_device -fno-discard-value-names"
        # A jump table is an indirect branch a divergent warp serializes on.
        "SHELL:-Xarch_device -fno-jump-tables")
    if(arg_NO_TRANSFORM)
      list(APPEND options "-mllvm=-sl1-disable")
    endif()
    if(NOT arg_NO_NVCC_PRELUDE)
      # What nvcc gives every source (the host side too), and `register`
      # under C++17 as nvcc accepts it.
      list(APPEND options "SHELL:-include \"${SL1_NVCC_PRELUDE}\"" "-Wno-register")
    endif()
    if(NOT arg_NO_DEVICE_TUNING)
      # As sl1-driver's DEVICE_TUNING (driver/src/build_cu.rs) and its
      # default device rewrites.
      list(APPEND options "SHELL:-Xarch_device -mllvm=-scev-cheap-expansion-budget=6"
           "SHELL:-Xarch_device -mllvm=-slp-vectorize-hor=false"
           "-mllvm=-sl1-device-tuning")
    endif()
    foreach(option IN LISTS arg_OPTIONS)
      if(NOT option MATCHES "^-?sl1-")
        message(FATAL_ERROR
                "sl1_target(${target}): OPTIONS takes the plugin's -sl1-* options "
                "(README: `-mllvm -sl1-...`), not ${option}")
      endif()
      string(REGEX REPLACE "^-?" "-" option "${option}")
      list(APPEND options "-mllvm=${option}")
    endforeach()
    list(TRANSFORM options PREPEND "$<$<COMPILE_LANGUAGE:CUDA>:")
    list(TRANSFORM options APPEND ">")
    target_compile_options("${target}" PRIVATE ${options})

    # Each CUDA source it has now: its own report, and the line buffers sized
    # at launch from it. Source properties belong to a directory, not a
    # target, so the options apply to this target's compile of the source only.
    get_target_property(sources "${target}" SOURCES)
    set(reports "")
    foreach(source IN LISTS sources)
      if(source MATCHES "^\\$<")
        continue()
      endif()
      get_source_file_property(language "${source}" TARGET_DIRECTORY "${target}" LANGUAGE)
      if(NOT (language STREQUAL "CUDA" OR (NOT language AND source MATCHES "\\.cu$")))
        continue()
      endif()
      get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
      file(RELATIVE_PATH relative "${source_dir}" "${path}")
      string(REPLACE "../" "__/" relative "${relative}")
      set(report "${report_dir}/${relative}.json")
      get_filename_component(dir "${report}" DIRECTORY)
      file(MAKE_DIRECTORY "${dir}")
      set(per_source "-mllvm=-sl1-report=${report}")
      if(arg_LINE_BUFFER STREQUAL "launch" AND NOT arg_NO_TRANSFORM)
        list(APPEND per_source "-mllvm=-sl1-launch-sized" "-mllvm=-sl1-launch-report=${report}")
      endif()
      list(TRANSFORM per_source PREPEND "$<$<STREQUAL:$<TARGET_PROPERTY:NAME>,${target}>:")
      list(TRANSFORM per_source APPEND ">")
      set_property(SOURCE "${source}" TARGET_DIRECTORY "${target}" APPEND
                   PROPERTY COMPILE_OPTIONS ${per_source})
      list(APPEND reports "${report}")
    endforeach()
    if(NOT reports)
      message(WARNING
              "sl1_target(${target}): the target has no CUDA sources yet; those added "
              "later are transformed with static line buffers and write no report "
              "(call sl1_target after the sources are added)")
    endif()
    set_property(TARGET "${target}" APPEND PROPERTY SL1_REPORTS ${reports})

    # The runtime, compiled as CUDA (the one language every such target
    # has), and the link routing the program's launches through it (PUBLIC:
    # a static library's consumers link with it too).
    if(NOT arg_NO_TRANSFORM)
      target_sources("${target}" PRIVATE "${SL1_RUNTIME_SOURCE}")
      set_source_files_properties("${SL1_RUNTIME_SOURCE}" TARGET_DIRECTORY "${target}"
                                  PROPERTIES LANGUAGE CUDA)
      list(TRANSFORM SL1_WRAPPED_LAUNCHES PREPEND "--wrap=" OUTPUT_VARIABLE wraps)
      list(JOIN wraps "," wraps)
      target_link_options("${target}" PUBLIC "LINKER:${wraps}")
    endif()
  endfunction()
endif()
