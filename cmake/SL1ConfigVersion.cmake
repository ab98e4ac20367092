# The S-L1 package's version: the workspace's (Cargo.toml; a driver test
# checks that they agree). A request matches this version or a later one of
# the same major version; before 1.0 a minor version may break what the one
# before it offered, so `0.1` asks for 0.1.x. A range matches when it holds
# this version.
set(PACKAGE_VERSION "0.1.0")

set(PACKAGE_VERSION_COMPATIBLE FALSE)
set(PACKAGE_VERSION_EXACT FALSE)
if(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION_RANGE)
  if(NOT PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION_MIN
     AND ((PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "INCLUDE"
           AND NOT PACKAGE_VERSION VERSION_GREATER PACKAGE_FIND_VERSION_MAX)
          OR (PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "EXCLUDE"
              AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION_MAX)))
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
else()
  string(REPLACE "." ";" _sl1_have "${PACKAGE_VERSION}")
  string(REPLACE "." ";" _sl1_want "${PACKAGE_FIND_VERSION}")
  list(GET _sl1_have 0 _sl1_have_major)
  list(GET _sl1_have 1 _sl1_have_minor)
  list(GET _sl1_want 0 _sl1_want_major)
  list(LENGTH _sl1_want _sl1_want_count)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(NOT _sl1_have_major EQUAL _sl1_want_major
     OR PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  elseif(_sl1_have_major EQUAL 0 AND _sl1_want_count GREATER 1)
    list(GET _sl1_want 1 _sl1_want_minor)
    if(NOT _sl1_have_minor EQUAL _sl1_want_minor)
      set(PACKAGE_VERSION_COMPATIBLE FALSE)
    endif()
  endif()
  if(PACKAGE_VERSION VERSION_EQUAL PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
  foreach(_sl1_var have want have_major have_minor want_major want_minor want_count)
    unset(_sl1_${_sl1_var})
  endforeach()
  unset(_sl1_var)
endif()

# The plugin is a 64-bit Linux library.
if(CMAKE_SIZEOF_VOID_P AND NOT CMAKE_SIZEOF_VOID_P EQUAL 8)
  set(PACKAGE_VERSION "${PACKAGE_VERSION} (64-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
