<#
.SYNOPSIS
    Greets someone by name.
.PARAMETER Name
    Who to greet.
.PARAMETER Shout
    Greet in capitals.
#>
function Get-Greeting {
    param(
        [Parameter(Mandatory = $true)]
        [string]$Name,

        [switch]$Shout
    )
    $text = "Hello, $Name!"
    if ($Shout) { $text = $text.ToUpper() }
    [PSCustomObject]@{ Greeting = $text }
}
