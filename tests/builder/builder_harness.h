// Running built computations in tests: every computation goes through its printed StableHLO
// (parsed back, verified, printed again to the same text) and runs on the reference
// interpreter from that parsed text, so a test checks the builder, the printed program and its
// result at once. The same computation then runs on the Vulkan device through the embedding API
// (Client::ExecuteAndTransfer) and must give the interpreter's result (infeed/outfeed entries
// through the client's queues); only computations taking tuple or token arguments, which are not
// device buffers, print "[interpreter only]".
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "literal_print.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo::interp {
struct HostQueues;
}  // namespace vkhlo::interp

namespace vkhlo::testing {

// Builds `builder`'s computation; a failure is the test's failure (with the builder's error).
XlaComputation BuildOrDie(XlaBuilder& builder);
XlaComputation BuildOrDie(XlaBuilder& builder, XlaOp root);

// Prints, parses, verifies and re-prints `computation`'s StableHLO; fails when any step does
// or when the re-printed text differs. Returns the text.
StatusOr<std::string> RoundTripText(const XlaComputation& computation);

// Runs `computation` on `arguments` with the reference interpreter, from its re-parsed text,
// and checks the device's result against it (see the top of this file; not with `queues`).
// A tuple-shaped result comes back as a tuple literal.
// `queues` holds the infeed / receives the outfeed (none: feeds are empty).
StatusOr<Literal> Execute(const XlaComputation& computation, const std::vector<const Literal*>& arguments = {},
                          interp::HostQueues* queues = nullptr);

// Builds and executes in one step (the builder's last op is the root).
StatusOr<Literal> BuildAndExecute(XlaBuilder& builder, const std::vector<const Literal*>& arguments = {});

// BuildAndExecute that turns a failure into the test's failure (and gives the nil literal).
Literal Evaluate(XlaBuilder& builder, const std::vector<const Literal*>& arguments = {});

// How many ops named `op_name` ("stablehlo.add") the computation's text has.
int CountOps(const XlaComputation& computation, const std::string& op_name);

// Element-wise comparison with a relative tolerance (floats) or exactly (others), with a
// readable message.
::testing::AssertionResult LiteralsNear(const Literal& expected, const Literal& actual, double tolerance = 0.0);

}  // namespace vkhlo::testing
