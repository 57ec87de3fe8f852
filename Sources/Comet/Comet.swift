// The pipeline (ImagePipeline, requests, caches) arrives with the pipeline-core issue. Until
// then this module only re-exports the parts it is built on, so `import Comet` gives both.
@_exported import Imaging
@_exported import Streams
