# The default build runs on CPUs older than the one it was built on: the perftkit binary, under
# qemu-user's emulation of a Nehalem (x86-64-v2: no AVX, no BMI2) and of a Haswell (AVX2 and
# BMI2, no AVX-512), chooses the CPU kernels that each can run (perftkit info) and counts
# perft 4 of the six standard positions right, plain, hashed and with statistics (the perft
# page of the Chess Programming Wiki). Skipped when qemu-x86_64 is absent.
#   cmake -DBINARY=<perftkit> -P portable_binary.cmake
cmake_minimum_required(VERSION 3.25)
find_program(QEMU qemu-x86_64)
if(NOT QEMU)
  message("portable binary check skipped: no qemu-x86_64 (Debian: apt-get install qemu-user)")
  return()
endif()

set(positions
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|197281"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|4085603"
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|43238"
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|422333"
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|2103487"
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|3894594")

set(failures 0)
foreach(cpu_and_level IN ITEMS "Nehalem|x86-64-v2" "Haswell|avx2_bmi2")
  string(REPLACE "|" ";" cpu_and_level "${cpu_and_level}")
  list(GET cpu_and_level 0 cpu)
  list(GET cpu_and_level 1 level)
  execute_process(COMMAND "${QEMU}" -cpu "${cpu}" "${BINARY}" info OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "CPU perft kernels: ${level} ")
    message(SEND_ERROR "-cpu ${cpu}: perftkit info exited ${rc}, expected kernels ${level}:\n${out}${err}")
    math(EXPR failures "${failures} + 1")
    continue()
  endif()
  message("-cpu ${cpu}: kernels ${level}")
  foreach(position_and_count IN LISTS positions)
    string(REPLACE "|" ";" position_and_count "${position_and_count}")
    list(GET position_and_count 0 fen)
    list(GET position_and_count 1 count)
    foreach(mode IN ITEMS "--hash;0" "--hash;4" "--stats")
      execute_process(COMMAND "${QEMU}" -cpu "${cpu}" "${BINARY}" perft --fen "${fen}" --depth 4 --threads 2 ${mode}
                      OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
      string(REGEX MATCH "Nodes searched: ([0-9]+)" found "${out}")
      if(NOT rc EQUAL 0 OR NOT CMAKE_MATCH_1 STREQUAL count)
        message(SEND_ERROR "-cpu ${cpu} ${mode} ${fen}: exit ${rc}, nodes '${CMAKE_MATCH_1}', expected ${count}\n${out}${err}")
        math(EXPR failures "${failures} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} failures under emulation")
endif()
message("portable binary: every count right under -cpu Nehalem and -cpu Haswell")
