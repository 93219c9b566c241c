# Tengen: build the virtualenv in one stage, run it slim and unprivileged in the next.

FROM python:3.12-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
RUN python -m venv /opt/venv && /opt/venv/bin/pip install .

FROM python:3.12-slim AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    # The source tree in /app (with alembic/ and frontend/) comes first on the path.
    PYTHONPATH=/app \
    TENGEN_ENV=production \
    TENGEN_HOST=0.0.0.0 \
    TENGEN_PORT=8000 \
    TENGEN_DATA_DIR=/data
RUN groupadd --system tengen && useradd --system --gid tengen --home-dir /app --shell /usr/sbin/nologin tengen \
    && mkdir -p /data && chown tengen:tengen /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY --chown=root:root . /app
USER tengen
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]
CMD ["tengen", "serve"]
