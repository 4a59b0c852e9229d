"""trainscope's models in PyTorch, for compare_gpu_with_pytorch.py: the PyTorch worker's
own builder (harness/pytorch/trainscope_pytorch_worker.py), so the models live in one
place, for 1x28x28 inputs in 10 classes."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "harness", "pytorch"))
from trainscope_pytorch_worker import build_model as _worker_build_model  # noqa: E402


def build_model(torch, nn, model_name, depth, width):
    spec = {"model": model_name, "model_params": {"depth": depth, "width": width}}
    return _worker_build_model(torch, nn, spec, (1, 28, 28), 10)
