// PJRT_LoadedExecutable_Execute: checks the arguments against the program's parameters now,
// returns output buffers typed from its results and a completion event at once, and queues the
// run on the client's executor (executor.h), which sets the outputs and the event when vkhlo's
// Execute returns — with its error, if it fails, which JAX raises where the values are used.
//
// Donation: parameters the program marks donated (program_signature.h), except those the caller
// lists as non-donatable, are taken over: their PJRT_Buffers read as deleted once the
// execution is queued, and their memory goes when it has run. vkhlo itself does not write
// results into them, so donation frees memory early but never aliases.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "pjrt/element_types.h"
#include "pjrt/entry_points.h"
#include "pjrt/errors.h"
#include "pjrt/objects.h"

namespace vkhlo::pjrt {
namespace {

constexpr std::string_view kFunction = "PJRT_LoadedExecutable_Execute";

struct QueuedRun {
  std::shared_ptr<const CompiledProgram> program;
  std::vector<std::shared_ptr<BufferValue>> inputs;
  std::vector<std::shared_ptr<BufferValue>> outputs;
  std::shared_ptr<EventState> done;
};

// Runs on the executor: every output and the completion event end ready, with the run's status.
void Run(const QueuedRun& run) {
  Status status;
  try {
    status = [&]() -> Status {
      std::vector<Buffer> arguments;
      arguments.reserve(run.inputs.size());
      for (size_t i = 0; i < run.inputs.size(); ++i) {
        StatusOr<Buffer> argument = AwaitBuffer(run.inputs[i]);
        if (!argument.ok()) return argument.status().WithContext(fmt::format("argument {}", i));
        arguments.push_back(*std::move(argument));
      }
      VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, run.program->executable->ExecuteBuffers(arguments));
      const std::vector<TensorType>& expected = run.program->signature.results;
      if (results.size() != expected.size()) {
        return InternalError(fmt::format("{}: the program returned {} buffers, its signature says {}", kFunction,
                                         results.size(), expected.size()));
      }
      for (size_t i = 0; i < results.size(); ++i) {
        if (results[i].type() != expected[i]) {
          return InternalError(fmt::format("{}: result {} is {}, its signature says {}", kFunction, i,
                                           results[i].type().ToString(), expected[i].ToString()));
        }
        run.outputs[i]->buffer = std::move(results[i]);
      }
      return OkStatus();
    }();
  } catch (...) {
    status = StatusFromCurrentException(kFunction);
  }
  for (const auto& output : run.outputs) output->ready->Set(status);
  run.done->Set(status);
}

// The inputs' values, checked against the parameters; the buffers to donate.
Status CheckArguments(const PJRT_LoadedExecutable& executable, PJRT_Buffer* const* arguments, size_t count,
                      const PJRT_ExecuteOptions* options, QueuedRun& run, std::vector<PJRT_Buffer*>& donated) {
  const ProgramSignature& signature = run.program->signature;
  if (count != signature.parameters.size()) {
    return InvalidArgumentError(fmt::format("{}: {} takes {} arguments, given {}", kFunction, signature.name,
                                            signature.parameters.size(), count));
  }
  if (count > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(arguments, kFunction, "argument_lists[0]"));
  std::set<int64_t> non_donatable;
  if (options != nullptr && options->num_non_donatable_input_indices > 0 &&
      options->non_donatable_input_indices != nullptr) {
    non_donatable.insert(options->non_donatable_input_indices,
                         options->non_donatable_input_indices + options->num_non_donatable_input_indices);
  }
  for (size_t i = 0; i < count; ++i) {
    const PJRT_Buffer* argument = arguments[i];
    if (argument == nullptr) return InvalidArgumentError(fmt::format("{}: argument {} is null", kFunction, i));
    if (argument->client != executable.client) {
      return InvalidArgumentError(fmt::format("{}: argument {} belongs to another client", kFunction, i));
    }
    if (argument->type != signature.parameters[i]) {
      return InvalidArgumentError(fmt::format("{}: argument {} of {} must be {}, given {}", kFunction, i,
                                              signature.name, signature.parameters[i].ToString(), argument->type.ToString()));
    }
    std::shared_ptr<BufferValue> value = argument->Value();
    if (value == nullptr) {
      return FailedPreconditionError(fmt::format("{}: argument {} ({}) has been deleted or donated", kFunction, i,
                                                 argument->type.ToString()));
    }
    run.inputs.push_back(std::move(value));
    if (signature.donated[i] && !non_donatable.contains(static_cast<int64_t>(i))) {
      donated.push_back(arguments[i]);
    }
  }
  // A buffer given twice cannot be both donated and read.
  for (PJRT_Buffer* buffer : donated) {
    if (std::count(arguments, arguments + count, buffer) > 1) {
      return InvalidArgumentError(fmt::format("{}: a donated buffer ({}) is passed more than once", kFunction,
                                              buffer->type.ToString()));
    }
  }
  return OkStatus();
}

}  // namespace

PJRT_Error* LoadedExecutableExecute(PJRT_LoadedExecutable_Execute_Args* args) {
  return Guard(kFunction, [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_Execute_Args, kFunction);
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->executable, kFunction, "executable"));
    const PJRT_LoadedExecutable& executable = *args->executable;
    PJRT_Client& client = *executable.client;
    QueuedRun run;
    run.program = executable.Program();
    if (run.program == nullptr) return FailedPreconditionError(fmt::format("{}: the executable has been deleted", kFunction));
    if (args->num_devices != 1) {
      return InvalidArgumentError(fmt::format("{}: {} devices asked for; the vkhlo plugin runs on one", kFunction, args->num_devices));
    }
    if (args->execute_device != nullptr && args->execute_device != &client.device) {
      return InvalidArgumentError(fmt::format("{}: execute_device is not this client's device", kFunction));
    }
    if (args->options != nullptr && (args->options->num_send_ops > 0 || args->options->num_recv_ops > 0)) {
      return UnimplementedError(fmt::format("{}: host send/recv callbacks are not supported by the vkhlo plugin", kFunction));
    }
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->output_lists, kFunction, "output_lists"));
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->output_lists[0], kFunction, "output_lists[0]"));
    if (args->num_args > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(args->argument_lists, kFunction, "argument_lists"));
    std::vector<PJRT_Buffer*> donated;
    VKHLO_RETURN_IF_ERROR(CheckArguments(executable, args->num_args > 0 ? args->argument_lists[0] : nullptr,
                                         args->num_args, args->options, run, donated));

    // Outputs, typed now; filled by the run.
    const ProgramSignature& signature = run.program->signature;
    std::vector<std::unique_ptr<PJRT_Buffer>> outputs;
    for (const TensorType& type : signature.results) {
      auto value = std::make_shared<BufferValue>(BufferValue{EventState::Pending(), Buffer()});
      run.outputs.push_back(value);
      VKHLO_ASSIGN_OR_RETURN(PJRT_Buffer * output, NewBuffer(&client, type, std::move(value)));
      outputs.emplace_back(output);
    }
    run.done = EventState::Pending();
    std::unique_ptr<PJRT_Event> done_event(args->device_complete_events != nullptr ? NewEvent(run.done) : nullptr);

    client.executor->Enqueue([run = std::move(run)] { Run(run); });
    // Nothing fails past this point: the donated buffers are the run's now; hand out the rest.
    for (PJRT_Buffer* buffer : donated) buffer->Delete();
    for (size_t i = 0; i < outputs.size(); ++i) args->output_lists[0][i] = outputs[i].release();
    if (done_event != nullptr) args->device_complete_events[0] = done_event.release();
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
