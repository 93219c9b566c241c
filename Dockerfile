# syntax=docker/dockerfile:1
# Tengen: build wheels in one stage, install them into a slim, unprivileged runtime in the next.
# docs/operations.md explains the environment variables and the compose stack around this image.

FROM python:3.12-slim AS builder
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md constraints.txt ./
COPY app ./app
# Tengen and every dependency as wheels: the runtime installs them offline and needs no compiler.
RUN pip wheel --wheel-dir /wheels -c constraints.txt .

FROM python:3.12-slim AS runtime
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TENGEN_ENV=production \
    TENGEN_HOST=0.0.0.0 \
    TENGEN_PORT=8000 \
    TENGEN_LOG_FORMAT=json \
    TENGEN_DATA_DIR=/data \
    TENGEN_ALEMBIC_DIR=/opt/tengen/alembic \
    TENGEN_FRONTEND_DIR=/opt/tengen/frontend \
    TENGEN_ENGINES_DIR=/opt/tengen/engines
# KataGo's OpenCL on the processor (docs/engines.md): the loader and POCL, and the libraries its binary takes from the
# system. On a GPU host, derive an image with the GPU's OpenCL driver instead of pocl-opencl-icd.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ocl-icd-libopencl1 pocl-opencl-icd libssl3 libstdc++6 \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 tengen \
    && useradd --system --uid 10001 --gid tengen --no-create-home --home-dir /data --shell /usr/sbin/nologin tengen \
    && mkdir -p /data && chown tengen:tengen /data
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    python -m venv /opt/venv && /opt/venv/bin/pip install --no-index --find-links=/wheels tengen
# Only what the server reads at run time: the migrations and the static site (owned by root, read-only).
COPY alembic /opt/tengen/alembic
COPY frontend /opt/tengen/frontend
# KataGo, installed at build time (docs/engines.md, "Install"): the pinned katrain wheel downloaded by pip (its
# SHA-256 checked), KataGo and its network extracted, the tuning file and configs written, KataGo started once per
# buffer size. Owned by root, read-only for the server; the server never downloads anything. The wheel itself is
# not needed at run time and is dropped. The speeds recorded are the build machine's; each process measures its
# own at start. POCL's kernel cache goes to the server's home (/data) at the first start.
RUN TENGEN_ENV=development TENGEN_DATA_DIR=/tmp/tengen-build tengen engines install \
    && rm -rf /opt/tengen/engines/*/*.whl /tmp/tengen-build /root/.cache
USER tengen:tengen
WORKDIR /data
EXPOSE 8000
VOLUME ["/data"]
# Liveness only: /healthz answers while the process serves requests (readiness is /readyz).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('TENGEN_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=2).status == 200 else 1)"]
CMD ["tengen", "serve"]
