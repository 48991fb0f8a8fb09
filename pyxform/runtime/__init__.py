"""Layer 2, runtime: Saxon-HE and what runs stylesheets on it; imports only ``pyxform.base``.

    saxon        SaxonRuntime: one processor, stylesheets compiled once, locked against URI access
    environment  Saxon's view of the process environment (empty unless I/O is allowed)
    compile_check  what a user stylesheet may reach while it is compiled, checked before Saxon sees it
    catalog      pyxform's XML catalog (public URIs of the installed stylesheets and schemas)
    registry     the built-in stylesheets by stage name, and the parameters each declares
    runner       the per-process compiled runtimes and the translation of stylesheet failures into errors
    steps        Step: one step of a pipeline
    params       the checks of stylesheet parameters
    docs         writes docs/stylesheets.md from the stylesheets' own comments (python -m pyxform.runtime.docs)
"""
