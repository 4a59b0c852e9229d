"""trainscope's data, made by the PyTorch worker (trainscope_pytorch_worker.py, which
imports this module from its own folder; docs/pytorch.md, "The same workload"): the same
IDX files and synthetic images, the same shuffled order and the same pixel scaling as
trainscope's engine (workloads/datasets). Uses only the standard library; torch is passed
in."""
import gzip
import json
import math
import os
import struct

MASK64 = (1 << 64) - 1


class Mt19937_64:
    """std::mt19937_64, so the shuffled order is trainscope's BatchLoader's, index for index."""

    def __init__(self, seed):
        self.mt = [0] * 312
        self.mt[0] = seed & MASK64
        for i in range(1, 312):
            prev = self.mt[i - 1]
            self.mt[i] = (6364136223846793005 * (prev ^ (prev >> 62)) + i) & MASK64
        self.index = 312

    def _twist(self):
        mt = self.mt
        for i in range(312):
            x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
            xa = x >> 1
            if x & 1:
                xa ^= 0xB5026F5AA96619E9
            mt[i] = mt[(i + 156) % 312] ^ xa
        self.index = 0

    def __call__(self):
        if self.index >= 312:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & MASK64


class Shuffler:
    """BatchLoader's rule: Fisher-Yates with engine() % i, seeded seed ^ 0xda7a5e7, redrawn
    every epoch from the previous order."""

    def __init__(self, count, seed):
        self.engine = Mt19937_64(seed ^ 0xDA7A5E7)
        self.order = list(range(count))

    def next_epoch(self):
        order, engine = self.order, self.engine
        for i in range(len(order), 1, -1):
            j = engine() % i
            order[i - 1], order[j] = order[j], order[i - 1]
        return order


def read_idx(path):
    """An IDX file (gzip or plain), as trainscope's IdxFile reads it: (dims, bytes)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if data[0] != 0 or data[1] != 0 or data[2] != 8:
        raise ValueError(f"{path}: not an unsigned-byte IDX file")
    rank = data[3]
    dims = struct.unpack(">" + "I" * rank, data[4:4 + 4 * rank])
    return dims, data[4 + 4 * rank:]


def find_idx(folder, stem):
    for name in (stem, stem + ".gz"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"{folder}: no {stem}[.gz]")


def load_split(torch, folder, prefix):
    dims, pixels = read_idx(find_idx(folder, f"{prefix}-images-idx3-ubyte"))
    _, labels = read_idx(find_idx(folder, f"{prefix}-labels-idx1-ubyte"))
    images = torch.frombuffer(bytearray(pixels), dtype=torch.uint8)
    # N x H x W is one channel; N x C x H x W as stored (IdxImageSource's rule).
    images = images.reshape(dims[0], *(dims[1:] if len(dims) == 4 else (1, *dims[1:])))
    return images, torch.frombuffer(bytearray(labels), dtype=torch.uint8).to(torch.int64)


def splitmix64(x):
    """SyntheticImageSource's counter-based generator (SplitMix64's finaliser)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


SYNTHETIC_NOISE_OFFSETS = 4093  # SyntheticImageSource's kNoiseOffsets


def byte_sequence(state, count):
    """`count` bytes, each the top byte of the next state of state = splitmix64(state)."""
    out = bytearray(count)
    for i in range(count):
        state = splitmix64(state)
        out[i] = state >> 56
    return out


class SyntheticImages:
    """trainscope's synthetic images (workloads/datasets/SyntheticImageSource), byte for
    byte, made on demand as trainscope makes them: indexing with a tensor of sample indices
    gives those images (uint8, N x C x H x W), computed when a batch is staged, so the
    cost lies in the step's data time on both sides and no dataset is held in memory.
    Image i is its class's prototype averaged with the window of the noise at its offset."""

    def __init__(self, prototypes, noise, labels, offsets, sample_shape):
        self.prototypes, self.noise = prototypes, noise
        self.labels, self.offsets = labels, offsets
        self.sample_shape = tuple(sample_shape)

    @property
    def shape(self):
        return (self.labels.shape[0], *self.sample_shape)

    @property
    def device(self):
        return self.labels.device

    def __getitem__(self, index):
        pixels = self.prototypes.shape[1]
        a = self.prototypes[self.labels[index]]
        b = self.noise.unfold(0, pixels, 1)[self.offsets[index]]  # window k: noise[k:k+pixels]
        # (a + b) / 2 rounded down, as the C++ integer division, without leaving uint8.
        return ((a >> 1) + (b >> 1) + (a & b & 1)).reshape(-1, *self.sample_shape)

    def to(self, device):
        """placement=resident: the whole set made once, on the device, as trainscope uploads
        its converted dataset; batches are then gathered there."""
        parts = [t.to(device) for t in (self.prototypes, self.noise, self.labels, self.offsets)]
        on_device = SyntheticImages(*parts, self.sample_shape)
        return on_device[parts[2].new_tensor(range(self.shape[0]))]


def synthetic_split(torch, count, shape, classes, seed, stream):
    """trainscope's synthetic images and labels: each class has a prototype drawn from the
    seed; image i uses a window of the stream's noise at an offset hashed from i, and its
    label is a hash of i. Learnable, as trainscope's are; stream 0 is the training set, 1
    the test set (other noise, the same prototypes)."""
    pixels = math.prod(shape)
    seed &= MASK64
    sample_seed = splitmix64(seed ^ splitmix64(stream + 1))
    prototypes = torch.frombuffer(byte_sequence(splitmix64(seed ^ 0x5EED), pixels * classes),
                                  dtype=torch.uint8).reshape(classes, pixels)
    noise = torch.frombuffer(byte_sequence(splitmix64(sample_seed ^ 0x401E),
                                           pixels + SYNTHETIC_NOISE_OFFSETS), dtype=torch.uint8)
    labels = torch.tensor([splitmix64(sample_seed ^ i) % classes for i in range(count)],
                          dtype=torch.int64)
    offsets = torch.tensor(
        [splitmix64((sample_seed + 0x1234567 * (i + 1)) & MASK64) % SYNTHETIC_NOISE_OFFSETS
         for i in range(count)], dtype=torch.int64)
    return SyntheticImages(prototypes, noise, labels, offsets, shape), labels


def load_data(torch, job, test_set=True):
    if job["dataset"] == "synthetic":
        shape = [int(v) for v in job["input_shape"].split("x")]
        # Any shape; the same images and labels as trainscope's (docs/pytorch.md, "Data").
        train = synthetic_split(torch, job["synthetic_train"], shape, job["classes"], job["seed"], 0)
        test = synthetic_split(torch, job["synthetic_test"], shape, job["classes"], job["seed"],
                               1) if test_set else None
        return train, test
    folder = job["dataset_dir"]
    return load_split(torch, folder, "train"), \
        (load_split(torch, folder, "t10k") if test_set else None)


def master_dtype(torch, precision):
    """The dtype trainscope keeps tensors in: fp64 for fp64, fp32 for every other precision
    (fp16 and bf16 are autocast's)."""
    return torch.float64 if precision == "fp64" else torch.float32


def pixel_scale(torch, master):
    """BatchLoader's table: byte v becomes v / 255 computed in double, then rounded to the
    master dtype. Not torch's division by 255: on CUDA (placement=resident gathers there) it
    multiplies by the reciprocal, which differs in the last bit for 126 of the 256 bytes."""
    return torch.tensor([v / 255.0 for v in range(256)], dtype=torch.float64).to(master)


def scaled(scale, pixels):
    """Byte pixels in [0, 1] by the table of pixel_scale, on the table's device."""
    return scale[pixels.long()]


def first_batch(job_path, out_path):
    """Test mode: the first training batch as trainscope's loader makes it (the first epoch's
    shuffled order, pixels scaled to the master dtype): the images' values (little-endian,
    float32, or float64 for fp64), then the labels (int32)."""
    import torch
    with open(job_path) as f:
        job = json.load(f)
    (images, labels), _ = load_data(torch, job, test_set=False)
    order = Shuffler(images.shape[0], job["seed"]).next_epoch()[:job["batch"]]
    index = torch.tensor(order, dtype=torch.int64)
    master = master_dtype(torch, job["precision"])
    x = scaled(pixel_scale(torch, master), images[index])
    code = "d" if master == torch.float64 else "f"
    with open(out_path, "wb") as f:
        f.write(struct.pack(f"<{x.numel()}{code}", *x.flatten().tolist()))
        f.write(struct.pack(f"<{len(order)}i", *labels[index].tolist()))
    return 0
