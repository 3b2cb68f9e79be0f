import Prometheus

extension Metrics {
    /// The name, unit and help of every metric family: the README's table, in code.
    /// Computed, since the library's descriptor is not `Sendable`; they are read when a
    /// series is made and at scrapes, never per request.
    enum Family {
        static var requests: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_http_requests", unitName: "total", helpText: "Requests answered, by method, route pattern and status class.")
        }

        static var requestDuration: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_http_request_duration", unitName: "seconds", helpText: "Time from reading a request to its answer (a long poll's includes its wait), by route pattern.")
        }

        static var openConnections: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_http_open_connections", unitName: "", helpText: "Client connections open now, event streams included.")
        }

        static var laneRequests: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_http_lane_requests", unitName: "", helpText: "Requests waiting for a worker and running, by lane (credentials: the password-hash queue).")
        }

        static var eventStreams: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_event_streams_open", unitName: "", helpText: "GET /v1/events streams open now.")
        }

        static var longPolls: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_long_polls_open", unitName: "", helpText: "GET /v1/changes long polls waiting now.")
        }

        static var cachedSessions: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_session_cache_entries", unitName: "", helpText: "Sessions held in the session cache.")
        }

        static var cachedJournals: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_head_cache_journals", unitName: "", helpText: "Journals whose newest version is held in memory.")
        }

        static var cachedJournalBytes: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_head_cache", unitName: "bytes", helpText: "Estimated memory of the journals held in memory (bounded by --head-cache-bytes).")
        }

        static var versionsWritten: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_store_versions_written", unitName: "total", helpText: "Journal versions committed by this process.")
        }

        static var commitVersions: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_store_commit_versions", unitName: "", helpText: "Versions per database commit (writes that queue behind a disk sync share the next commit).")
        }

        static var databaseBytes: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "lucid_store_database", unitName: "bytes", helpText: "Size of the database: SQLite's file and write-ahead log, or PostgreSQL's pg_database_size.")
        }

        static var residentBytes: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "process_resident_memory", unitName: "bytes", helpText: "Resident memory of the process.")
        }

        static var openFileDescriptors: MetricNameDescriptor {
            MetricNameDescriptor(metricName: "process_open_fds", unitName: "", helpText: "Open file descriptors of the process.")
        }
    }
}
