# Fresh-machine entry points. Everything is installed into .venv from this repository's own files.
PYTHON ?= python3
VENV ?= .venv
TRAIN_VENV ?= .venv-train
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-train firmware models models-quick benchmarks clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/referee demo

test: $(STAMP)
	$(PY) -m pytest -q

firmware:
	$(MAKE) -C hardware/firmware

$(TRAIN_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install -q --upgrade pip
	$(TRAIN_VENV)/bin/python -m pip install -q -e '.[train,test]'
	touch $@

# The training path for real: ultralytics' --quick training and export, ONNX-vs-torch agreement, dataset checks.
test-train: $(TRAIN_VENV)/.installed
	$(TRAIN_VENV)/bin/python -m pytest -q tests/models tests/synth/test_dataset.py

models: $(TRAIN_VENV)/.installed
	$(TRAIN_VENV)/bin/python -m models.train

models-quick: $(TRAIN_VENV)/.installed
	$(TRAIN_VENV)/bin/python -m models.train --quick

benchmarks: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) $(TRAIN_VENV) build *.egg-info
