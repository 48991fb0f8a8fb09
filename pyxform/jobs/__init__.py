"""Layer 5, jobs: one page with its options -> its outputs or a recorded failure, in this process or in an isolated
worker; writing outputs; reports; many inputs. The wings (crawl, search, batch) and the command line build on it.

    PageOptions       one page's options, frozen and picklable (pyxform.jobs.options)
    run_page          one page in this process -> PageResult; never raises for what the page causes (.page)
    Worker            one isolated child process, reused page after page, under a time and a memory limit (.worker)
    PageResult        status ok / partial / no-tables / failed, outputs (Output), table failures, error (.page)
    page_runner       Worker.run or run_page, as the limits say (.worker)
    outputs           output names, atomic writes, the overwrite policy (.outputs)
    reports           the JSON-lines report and the summary of a run (.reports)
    run_inputs        many inputs, one after another, each recorded (.loop)
    TransformOptions  the toolkit's jobs, `pyxform transform` and `pyxform query`, run as pages are (in the worker
    QueryOptions      too, so that a stylesheet that loops forever is stopped): run_job, job_runner (.toolkit)
"""

from .loop import InputOutcome, run_inputs
from .options import PageOptions, conversion_pipeline
from .page import Output, PageResult, Status, TableFailureInfo, check_options, every_table_failed, run_page
from .toolkit import JobOptions, QueryOptions, TransformOptions, run_job
from .worker import Worker, job_runner, page_runner

__all__ = ["PageOptions", "PageResult", "Output", "TableFailureInfo", "Status", "run_page", "Worker", "page_runner",
           "check_options", "conversion_pipeline", "every_table_failed", "InputOutcome", "run_inputs",
           "TransformOptions", "QueryOptions", "JobOptions", "run_job", "job_runner"]
