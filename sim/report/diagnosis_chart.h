// The diagnosis' chart of `ringsim report --validation FILE`: a run's measured busbw against size beside
// the hardware's as described (the simulation `validate` compared) and the explaining variant's (the
// candidate `validate --explain` names, else its best), read from `validate --explain --json`.
#pragma once

#include "report_figures.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringsim {

struct DiagnosisCurve {
  std::string name;             // "hardware as described", "GDR off"
  double score = 0;             // median |log error| (run_diagnosis.h)
  std::vector<double> time_s;   // per size of the chart
};

struct DiagnosisChart {
  std::string scenario;
  std::string trace;            // the measured log's file
  std::string case_name;        // "2x4 block": the first case of the validation, the one drawn
  std::vector<std::uint64_t> bytes;
  std::vector<double> busbw_factor;  // nccl-tests' per size (collective_catalog.h)
  std::vector<double> measured_s;
  DiagnosisCurve hardware;
  std::optional<DiagnosisCurve> variant;  // none: no candidate was simulated
  bool explains = false;                  // the variant is the one --explain names
  std::string confirm;                    // what would confirm it (empty when none explains)
};

// Reads FILE (`ringsim validate --explain --json`); throws InputError naming FILE and the JSON path
// when it is not such a document (a plain validation without "diagnosis" included).
DiagnosisChart read_diagnosis_chart(const std::string& file);

// The chart with its sentence: which curve the measurement follows, by the scores.
ReportSection diagnosis_section(const DiagnosisChart& chart);

}  // namespace ringsim
