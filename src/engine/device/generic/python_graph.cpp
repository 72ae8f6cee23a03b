#include "engine/device/generic/python_graph.h"

#include <pybind11/embed.h>

#include "engine/provider/embedded_python.h"
#include "engine/provider/python_error_text.h"

namespace py = pybind11;

namespace caliber {
namespace {

constexpr const char* kGraphHelpers = R"PY(
import torch

def graph_class(type_name):
    module = getattr(torch, type_name, None)
    if module is None:
        return None, "torch has no module torch." + type_name
    for name in sorted(dir(module)):
        cls = getattr(module, name, None)
        if name.endswith("Graph") and isinstance(cls, type) and all(
            hasattr(cls, m) for m in ("capture_begin", "capture_end", "replay")
        ):
            return cls, "torch.%s.%s" % (type_name, name)
    return None, "torch.%s has no graph class (capture_begin, capture_end, replay)" % type_name

def probe(type_name, index):
    cls, name = graph_class(type_name)
    if cls is None:
        return False, name
    device = torch.device(type_name, index)
    try:
        x = torch.ones(16, device=device)
        y = torch.zeros(16, device=device)
        side = torch.Stream(device=device)
        side.wait_stream(torch.accelerator.current_stream(device))
        graph = cls()
        with side:
            graph.capture_begin()
            y.copy_(x + 1)
            graph.capture_end()
        torch.accelerator.current_stream(device).wait_stream(side)
        y.zero_()
        graph.replay()
        torch.accelerator.synchronize(device)
        if not bool((y.cpu() == 2).all()):
            return False, name + ": a replay did not reproduce the captured work"
        return True, name
    except Exception as e:
        lines = str(e).strip().splitlines()
        return False, "%s: %s: %s" % (name, type(e).__name__, lines[0] if lines else "")
)PY";

py::dict& helpers() {
  static py::dict* scope = [] {
    auto* d = new py::dict();
    (*d)["__builtins__"] = py::module_::import("builtins");
    py::exec(kGraphHelpers, *d);
    return d;
  }();
  return *scope;
}

class PythonGraph : public CapturedGraph {
 public:
  // Its own events (on the device API's stream), so that graphs replaying in turn do not share
  // them.
  PythonGraph(py::object graph, const EventTimer& timer)
      : graph_(std::move(graph)), timer_(timer.stream()) {}
  ~PythonGraph() override {
    py::gil_scoped_acquire gil;
    graph_ = py::object();
  }

  void replay_untimed() override { replay(); }

  void queue_timed(int replays, const Call& before_each) override {
    timer_.queue_each([this] { replay(); }, replays, before_each, "replay");
  }

  std::vector<double> collect_timed() override { return timer_.collect("replay"); }

 private:
  void replay() {
    py::gil_scoped_acquire gil;
    try {
      graph_.attr("replay")();
    } catch (const py::error_already_set& e) {
      throw DeviceError("replay", last_traceback_line(e));
    }
  }

  py::object graph_;
  EventTimer timer_;
};

}  // namespace

GraphSupport probe_graph_support(const std::string& torch_device_type, int index) {
  ensure_embedded_python();
  py::gil_scoped_acquire gil;
  try {
    auto result = helpers()["probe"](torch_device_type, index).cast<py::tuple>();
    return {result[0].cast<bool>(), result[1].cast<std::string>()};
  } catch (const py::error_already_set& e) {
    return {false, last_traceback_line(e)};
  }
}

std::unique_ptr<CapturedGraph> capture_python_graph(const std::string& torch_device_type,
                                                    const Call& call, int calls_per_graph,
                                                    EventTimer& timer) {
  ensure_embedded_python();
  py::object graph;
  {
    py::gil_scoped_acquire gil;
    py::tuple found = helpers()["graph_class"](torch_device_type).cast<py::tuple>();
    if (found[0].is_none()) throw DeviceError("capture", found[1].cast<std::string>());
    try {
      graph = found[0]();
      graph.attr("capture_begin")();
    } catch (const py::error_already_set& e) {
      throw DeviceError("capture", last_traceback_line(e));
    }
  }
  std::exception_ptr failure;
  try {
    // Without the GIL: the call may run a python: candidate's kernels.
    for (int i = 0; i < calls_per_graph; ++i) call();
  } catch (...) {
    failure = std::current_exception();
  }
  py::gil_scoped_acquire gil;
  try {
    graph.attr("capture_end")();
  } catch (const py::error_already_set& e) {
    if (!failure) failure = std::make_exception_ptr(DeviceError("capture", last_traceback_line(e)));
  }
  if (failure) {
    graph = py::object();
    std::rethrow_exception(failure);
  }
  return std::make_unique<PythonGraph>(std::move(graph), timer);
}

}  // namespace caliber
