//! The page's two columns of tabs, as enums: the left column's editors and the right column's
//! views. A tab's id names its button (`tab-<id>`) for tests and the ARIA pattern.

/// A tab of the left column (the editors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftTab {
    /// Tools and conversation, field by field.
    Edit,
    /// The canonical JSON.
    Json,
    /// The conversation as a transcript.
    Transcript,
}

impl LeftTab {
    /// In the order of the tab list.
    pub const ALL: [LeftTab; 3] = [LeftTab::Edit, LeftTab::Json, LeftTab::Transcript];

    /// The id in the tab button's `tab-<id>`.
    pub fn id(self) -> &'static str {
        match self {
            LeftTab::Edit => "edit",
            LeftTab::Json => "json",
            LeftTab::Transcript => "transcript",
        }
    }

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            LeftTab::Edit => "Tools & conversation",
            LeftTab::Json => "Canonical JSON",
            LeftTab::Transcript => "Transcript",
        }
    }
}

/// A tab of the right column (the views).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RightTab {
    /// The format panes.
    Formats,
    /// A stream step by step.
    Replay,
    /// The stream each provider would send.
    Streams,
    /// Live calls.
    Live,
    /// Tokens per model.
    Cost,
}

impl RightTab {
    /// In the order of the tab list.
    pub const ALL: [RightTab; 5] = [
        RightTab::Formats,
        RightTab::Replay,
        RightTab::Streams,
        RightTab::Live,
        RightTab::Cost,
    ];

    /// The id in the tab button's `tab-<id>`.
    pub fn id(self) -> &'static str {
        match self {
            RightTab::Formats => "formats",
            RightTab::Replay => "replay",
            RightTab::Streams => "streams",
            RightTab::Live => "live",
            RightTab::Cost => "cost",
        }
    }

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            RightTab::Formats => "Wire formats",
            RightTab::Replay => "Replay a stream",
            RightTab::Streams => "Streams per provider",
            RightTab::Live => "Live",
            RightTab::Cost => "Cost",
        }
    }
}
